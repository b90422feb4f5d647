package jsonpatch

import (
	"errors"
	"strings"
	"testing"
)

func mustDecode(t testing.TB, s string) Value {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// ops reads a patch written as JSON.
func ops(t testing.TB, s string) []Op {
	t.Helper()
	out, err := DecodeOps([]byte(s))
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return out
}

func TestDecodeOps(t *testing.T) {
	got := ops(t, `[{"op":"move","from":"/a","path":"/b","x":[1,{"y":2}]},`+
		`{"value":{"k":[1]},"p\u0061th":"/a~1b","op":"add"},`+
		`{"op":"test","path":1,"from":["/z"],"value":null}]`)
	want := []Op{
		{Index: 0, Op: "move", From: "/a", Path: "/b"},
		{Index: 1, Op: "add", Path: "/a~1b", Value: mustDecode(t, `{"k":[1]}`)},
		{Index: 2, Op: "test"}, // a path or from of the wrong kind is left empty
	}
	if len(got) != len(want) {
		t.Fatalf("%d operations, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Index != w.Index || g.Op != w.Op || g.Path != w.Path || g.From != w.From || !Equal(g.Value, w.Value) {
			t.Errorf("operation %d: %+v, want %+v", i, g, w)
		}
	}
	for _, bad := range []string{`{}`, `[1]`, `[{"op":"add"`, `[{"op":"add","op":"remove"}]`, `[] []`, "[{\"op\":\"\xff\"}]"} {
		if got, err := DecodeOps([]byte(bad)); err == nil {
			t.Errorf("%q read as %+v", bad, got)
		}
	}
}

func TestCheckPointer(t *testing.T) {
	for p, ok := range map[string]bool{
		"": true, "/": true, "/a/0": true, "/a~0b~1c": true, "//": true,
		"a": false, "/a~": false, "/a~2": false, "/~~0": false,
	} {
		if err := CheckPointer(p); (err == nil) != ok {
			t.Errorf("CheckPointer(%q) = %v", p, err)
		}
		if _, err := ParsePointer(p); (err == nil) != ok {
			t.Errorf("ParsePointer(%q) = %v", p, err)
		}
	}
	if p, _ := ParsePointer("/a~0b~1c/~01"); len(p) != 2 || p[0] != "a~b/c" || p[1] != "~1" {
		t.Errorf("tokens %q", p)
	}
}

func TestApply(t *testing.T) {
	tests := []struct {
		name, doc, patch, want string
	}{
		{"add a member", `{"a":1}`, `[{"op":"add","path":"/b","value":2}]`, `{"a":1,"b":2}`},
		{"add replaces a member in place", `{"a":1,"b":2}`, `[{"op":"add","path":"/a","value":3}]`, `{"a":3,"b":2}`},
		{"add inserts into an array", `[1,3]`, `[{"op":"add","path":"/1","value":2}]`, `[1,2,3]`},
		{"add at the end index", `[1]`, `[{"op":"add","path":"/1","value":2}]`, `[1,2]`},
		{"add appends at -", `{"a":[1]}`, `[{"op":"add","path":"/a/-","value":[2]}]`, `{"a":[1,[2]]}`},
		{"add null is a value", `{}`, `[{"op":"add","path":"/a","value":null}]`, `{"a":null}`},
		{"add the whole document", `{"a":1}`, `[{"op":"add","path":"","value":[1]}]`, `[1]`},
		{"remove a member", `{"a":1,"b":2}`, `[{"op":"remove","path":"/a"}]`, `{"b":2}`},
		{"remove an item", `[1,2,3]`, `[{"op":"remove","path":"/1"}]`, `[1,3]`},
		{"replace a nested value", `{"a":{"b":[0,{"c":1}]}}`, `[{"op":"replace","path":"/a/b/1/c","value":"x"}]`, `{"a":{"b":[0,{"c":"x"}]}}`},
		{"replace the whole document", `{"a":1}`, `[{"op":"replace","path":"","value":0}]`, `0`},
		{"replace a number root", `0`, `[{"op":"replace","path":"","value":5}]`, `5`},
		{"test a string root", `"s"`, `[{"op":"test","path":"","value":"s"}]`, `"s"`},
		{"null root replaced", `null`, `[{"op":"replace","path":"","value":{"a":1}}]`, `{"a":1}`},
		{"an empty token names the member \"\"", `{"":{"":1}}`, `[{"op":"replace","path":"//","value":2}]`, `{"":{"":2}}`},
		{"escaped tokens", `{"a/b":{"c~d":1}}`, `[{"op":"remove","path":"/a~1b/c~0d"}]`, `{"a/b":{}}`},
		{"move a member", `{"a":1,"b":{}}`, `[{"op":"move","from":"/a","path":"/b/c"}]`, `{"b":{"c":1}}`},
		{"move onto itself", `{"a":1}`, `[{"op":"move","from":"/a","path":"/a"}]`, `{"a":1}`},
		{"move within an array", `[1,2,3]`, `[{"op":"move","from":"/0","path":"/2"}]`, `[2,3,1]`},
		{"copy shares nothing it changes", `{"a":{"x":1}}`, `[{"op":"copy","from":"/a","path":"/b"},{"op":"replace","path":"/b/x","value":2}]`, `{"a":{"x":1},"b":{"x":2}}`},
		{"test numbers by value", `{"n":100,"z":0}`, `[{"op":"test","path":"/n","value":1e2},{"op":"test","path":"/z","value":-0.0}]`, `{"n":100,"z":0}`},
		{"test numbers beyond float64", `[1e400]`, `[{"op":"test","path":"/0","value":10e399}]`, `[1e400]`},
		{"test objects in any order", `{"a":{"x":1,"y":[null]}}`, `[{"op":"test","path":"/a","value":{"y":[null],"x":1.0}}]`, `{"a":{"x":1,"y":[null]}}`},
		{"no operations", `{"a":1}`, `[]`, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustDecode(t, tt.doc)
			got, err := Apply(doc, ops(t, tt.patch), 1<<20)
			if err != nil {
				t.Fatalf("failed: %v", err)
			}
			if !Equal(got, mustDecode(t, tt.want)) {
				t.Errorf("got %s, want %s", Encode(got), tt.want)
			}
			if string(Encode(doc)) != string(Encode(mustDecode(t, tt.doc))) {
				t.Errorf("the input changed: %s", Encode(doc))
			}
		})
	}
}

func TestApplyFailsWhole(t *testing.T) {
	tests := []struct {
		name, doc, patch string
		index            int
		reason           string
	}{
		{"replace a missing member", `{"a":1}`, `[{"op":"replace","path":"/a","value":2},{"op":"replace","path":"/b","value":1}]`, 1, "the path does not exist"},
		{"remove a missing member", `{}`, `[{"op":"remove","path":"/a"}]`, 0, "the path does not exist"},
		{"add under a missing parent", `{}`, `[{"op":"add","path":"/a/b","value":1}]`, 0, "the path does not exist"},
		{"add past the end", `[1]`, `[{"op":"add","path":"/2","value":1}]`, 0, "no element at that index"},
		{"an index with a leading zero", `[1,2]`, `[{"op":"replace","path":"/01","value":1}]`, 0, "no element at that index"},
		{"a negative index", `[1,2]`, `[{"op":"remove","path":"/-1"}]`, 0, "no element at that index"},
		{"a signed index", `[1,2]`, `[{"op":"add","path":"/+1","value":0}]`, 0, "no element at that index"},
		{"- names no element to replace", `[1]`, `[{"op":"replace","path":"/-","value":0}]`, 0, "no element at that index"},
		{"into a number", `{"a":1}`, `[{"op":"add","path":"/a/b","value":1}]`, 0, "does not lead into an object or array"},
		{"into a number root", `0`, `[{"op":"add","path":"/a","value":1}]`, 0, "does not lead into an object or array"},
		{"remove the whole document", `{}`, `[{"op":"remove","path":""}]`, 0, "cannot be removed"},
		{"move into itself", `{"a":{"b":{}}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`, 0, "cannot be moved into itself"},
		{"move from nowhere", `{}`, `[{"op":"move","from":"/x","path":"/y"}]`, 0, "from: the path does not exist"},
		{"test a different value", `{"a":"1"}`, `[{"op":"test","path":"/a","value":1}]`, 0, "test failed"},
		{"test a missing null", `{}`, `[{"op":"test","path":"/a","value":null}]`, 0, "the path does not exist"},
		{"a bad pointer", `{}`, `[{"op":"add","path":"/a~2","value":1}]`, 0, "~0"},
		{"copies past the size bound", `{"a":"` + strings.Repeat("x", 600) + `"}`,
			`[{"op":"copy","from":"/a","path":"/b"},{"op":"copy","from":"","path":"/c"}]`, 1, "larger than 1 KiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := mustDecode(t, tt.doc)
			got, failed := Apply(doc, ops(t, tt.patch), 1<<10+500)
			var err *Error
			if !errors.As(failed, &err) {
				t.Fatalf("applied: %s (error %v)", Encode(got), failed)
			}
			if err.Index != tt.index || !strings.Contains(err.Reason, tt.reason) {
				t.Errorf("failed at %d with %q, want %d with %q", err.Index, err.Reason, tt.index, tt.reason)
			}
			if got != doc {
				t.Errorf("a failed patch returned %s, not its input", Encode(got))
			}
		})
	}
}

func TestDecodeIsExact(t *testing.T) {
	for _, bad := range []string{
		`{"a":1,"a":2}`, `[1] 2`, `{"a":`, "\"\xff\"", `{"a":1}}`, ``,
		strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	} {
		if v, err := Decode([]byte(bad)); err == nil {
			t.Errorf("%.40q decoded as %s", bad, Encode(v))
		}
	}
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Decode([]byte(deep)); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	// Numbers keep their text, members their order, strings their escapes.
	const text = `{"z":1.50,"a":[1e400,-0,"\u00e9\n"],"m":{}}`
	if got := string(Encode(mustDecode(t, text))); got != `{"z":1.50,"a":[1e400,-0,"é\n"],"m":{}}` {
		t.Errorf("round trip %s", got)
	}
}

func TestSizeIsKeptAlongTheWay(t *testing.T) {
	v := mustDecode(t, `{"a":[1,"xy",null,true,false],"b":{"c":"d\"e"}}`)
	if got, want := Size(v), len(Encode(v)); got != want {
		t.Errorf("Size %d, encoded %d", got, want)
	}
	next, err := Apply(v, ops(t, `[{"op":"add","path":"/a/-","value":{"k":[]}}]`), 1<<20)
	if err != nil || Size(next) != len(Encode(next)) {
		t.Errorf("after a patch: Size %d, encoded %d (%v)", Size(next), len(Encode(next)), err)
	}
}

func TestLargeObjectsKeepAnIndex(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strings.Repeat("x", i) + `":` + "1")
	}
	b.WriteString("}")
	o := mustDecode(t, b.String()).(*Object)
	next, err := Apply(o, ops(t, `[{"op":"remove","path":"/k"},{"op":"add","path":"/new","value":2}]`), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	n := next.(*Object)
	if _, ok := n.Get("k"); ok || n.Len() != 100 {
		t.Errorf("remove: %d members", n.Len())
	}
	if v, ok := n.Get("new"); !ok || v != Number("2") {
		t.Errorf("add: %v", v)
	}
	if v, _ := n.Get("kxx"); v != Number("1") {
		t.Errorf("a kept member reads %v", v)
	}
}

// DecodeObject gives what Decode gives for an object, and each member's
// value as written; anything Decode refuses, or any other value, it
// refuses too, and a failed read leaves nothing behind for the next.
func TestDecodeObject(t *testing.T) {
	for _, tt := range []struct {
		data    string
		members []string // nil: refused
	}{
		{`{"a":1,"b" : [1, {"c":"d"}] ,"e":{}}`, []string{`1`, `[1, {"c":"d"}]`, `{}`}},
		{" \n{ }\t", []string{}},
		{`{"a":"x\"y"}`, []string{`"x\"y"`}},
		{`[1]`, nil},
		{`"a"`, nil},
		{`{"a":1,"a":2}`, nil},
		{`{"a":1} {}`, nil},
		{`{"a":[[1,2],{"b":}]}`, nil},
		{"{\"a\":\"\xff\"}", nil},
		{`{"a":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`, nil},
	} {
		object, members, ok := DecodeObject([]byte(tt.data))
		v, err := Decode([]byte(tt.data))
		if _, isObject := v.(*Object); ok != (err == nil && isObject) || ok != (tt.members != nil) {
			t.Errorf("%s: ok %v; Decode %v", tt.data, ok, err)
			continue
		}
		if !ok {
			continue
		}
		if !Equal(object, v) || len(members) != len(tt.members) {
			t.Errorf("%s: %s, %q", tt.data, Encode(object), members)
			continue
		}
		for i, m := range members {
			if string(m) != tt.members[i] {
				t.Errorf("%s: member %d is %s, want %s", tt.data, i, m, tt.members[i])
			}
		}
	}
}
