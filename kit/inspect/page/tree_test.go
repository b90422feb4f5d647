package page

import (
	"reflect"
	"strings"
	"testing"
)

// lineText is a line as a test reads it: indent, key, text, and marks.
func lineText(l Line) string {
	s := strings.Repeat(" ", l.Depth) + l.Key + "=" + l.Text
	if l.Branch && !l.Open {
		s += " (closed)"
	}
	if l.Changed {
		s += " *"
	}
	if l.Holds {
		s += " +"
	}
	return s
}

func TestTheTreeKeepsTheMembersOrderAndNamesEachValueByPointer(t *testing.T) {
	root, err := ParseTree([]byte(`{"z":1,"a/b":{"c~d":[true,null,"x"]},"n":1.50}`))
	if err != nil {
		t.Fatal(err)
	}
	var pointers []string
	var walk func(Node)
	walk = func(n Node) {
		pointers = append(pointers, n.Pointer+"="+n.Text)
		for _, c := range n.Children {
			walk(c)
		}
	}
	walk(root)
	want := []string{"=", "/z=1", "/a~1b=", "/a~1b/c~0d=", "/a~1b/c~0d/0=true", "/a~1b/c~0d/1=null", `/a~1b/c~0d/2="x"`, "/n=1.50"}
	if !reflect.DeepEqual(pointers, want) {
		t.Errorf("pointers %q, want %q", pointers, want)
	}
	for _, bad := range []string{`{"a":`, `[1,2`, `1 2`, ``} {
		if _, err := ParseTree([]byte(bad)); err == nil {
			t.Errorf("%q read", bad)
		}
	}
}

func TestTheTreeOpensNearTheTopAndWhereTheEventChangedIt(t *testing.T) {
	root, _ := ParseTree([]byte(`{"services":[{"id":"api","latency":{"p95":60}},{"id":"auth","latency":{"p95":35}}],"note":"x"}`))
	cases := []struct {
		name    string
		changed []string
		open    map[string]bool
		want    []string
	}{
		{"nothing changed: two levels open", nil, nil, []string{
			"={2}", " services=[2]", "  0={2} (closed)", "  1={2} (closed)", ` note="x"`}},
		{"a change deep down opens the way to it", []string{"/services/1/latency/p95"}, nil, []string{
			"={2} +", " services=[2] +", "  0={2} (closed)", "  1={2} +", `   id="auth"`, "   latency={1} +", "    p95=35 *", ` note="x"`}},
		{"the person's choice wins", []string{"/services/1/latency/p95"}, map[string]bool{"/services/1": false, "/services/0": true}, []string{
			"={2} +", " services=[2] +", "  0={2}", `   id="api"`, "   latency={1} (closed)", "  1={2} (closed) +", ` note="x"`}},
		{"the whole state replaced", []string{""}, nil, []string{
			"={2} *", " services=[2]", "  0={2} (closed)", "  1={2} (closed)", ` note="x"`}},
	}
	for _, c := range cases {
		lines, more := Lines(root, c.changed, c.open)
		var got []string
		for _, l := range lines {
			got = append(got, lineText(l))
		}
		if !reflect.DeepEqual(got, c.want) || more != 0 {
			t.Errorf("%s:\n got %q\nwant %q (more %d)", c.name, got, c.want, more)
		}
	}
}

func TestABigTreeIsDrawnUpToItsBound(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("1")
	}
	b.WriteString("]")
	root, _ := ParseTree([]byte(b.String()))
	lines, more := Lines(root, nil, nil)
	if len(lines) != maxLines || more != 3001-maxLines {
		t.Errorf("%d lines, %d more", len(lines), more)
	}
}
