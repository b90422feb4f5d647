package core

import (
	"slices"
	"strings"
	"testing"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

const search = `{"id":"search","name":"Search","series":"Platform","volume":410,"latency":71}`

func TestApplyPatchAccepts(t *testing.T) {
	tests := []struct {
		name  string
		ops   string
		check func(Wire) bool
	}{
		{"replace a latency", `[{"op":"replace","path":"/services/0/latency","value":145}]`,
			func(w Wire) bool { return w.At(0).Latency == 145 }},
		{"append a service", `[{"op":"add","path":"/services/-","value":` + search + `}]`,
			func(w Wire) bool { return w.Len() == 4 && w.At(3).ID == "search" }},
		{"remove a service", `[{"op":"remove","path":"/services/1"}]`,
			func(w Wire) bool { return w.Len() == 2 && w.At(1).ID == "auth" }},
		{"move a service", `[{"op":"move","from":"/services/2","path":"/services/0"}]`,
			func(w Wire) bool { return w.At(0).ID == "auth" && w.At(1).ID == "api" }},
		{"test then replace", `[{"op":"test","path":"/services/1/latency","value":92},{"op":"replace","path":"/services/1/latency","value":93}]`,
			func(w Wire) bool { return w.At(1).Latency == 93 }},
		{"replace the whole state", `[{"op":"replace","path":"","value":{"services":[]}}]`,
			func(w Wire) bool { return w.Len() == 0 }},
		// RFC 6902 4.6: numbers are equal when their values are.
		{"test -0 against 0", `[{"op":"test","path":"/services/0/volume","value":1200.0},{"op":"replace","path":"/services/2/volume","value":0},{"op":"test","path":"/services/2/volume","value":-0}]`,
			func(w Wire) bool { return w.At(2).Volume == 0 }},
		{"test 1e2 against 100", `[{"op":"replace","path":"/services/0/latency","value":100},{"op":"test","path":"/services/0/latency","value":1e2}]`,
			func(w Wire) bool { return w.At(0).Latency == 100 }},
		{"test an object in another key order", `[{"op":"test","path":"/services/2","value":{"latency":35,"volume":900,"series":"Platform","name":"Auth","id":"auth"}}]`,
			func(w Wire) bool { return slices.Equal(w.Services(), initialWire().Services()) }},
		// "value": null is a value: the state passes through null and is valid after.
		{"null then a number", `[{"op":"replace","path":"/services/0/latency","value":null},{"op":"replace","path":"/services/0/latency","value":5}]`,
			func(w Wire) bool { return w.At(0).Latency == 5 }},
		{"ids swapped across two services", `[{"op":"replace","path":"/services/0/id","value":"checkout"},{"op":"replace","path":"/services/1/id","value":"api"}]`,
			func(w Wire) bool {
				s, _ := w.Find("api")
				return w.At(0).ID == "checkout" && s.Name == "Checkout"
			}},
		{"members other than op, path, from and value are ignored", `[{"op":"replace","path":"/services/0/latency","value":7,"note":"RFC 6902 4"}]`,
			func(w Wire) bool { return w.At(0).Latency == 7 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := initialWire()
			next, r := ApplyPatch(before, operations(t, tt.ops), "run-1")
			if r != nil {
				t.Fatalf("rejected: %v", r)
			}
			if !tt.check(next) {
				t.Errorf("result %+v", next.Services())
			}
			if !slices.Equal(before.Services(), initialWire().Services()) {
				t.Errorf("input changed: %+v", before.Services())
			}
			for i, s := range next.All() {
				if found, ok := next.Find(s.ID); !ok || found != next.At(i) {
					t.Errorf("the index lost %s", s.ID)
				}
			}
		})
	}
}

func TestApplyPatchRejectsWhole(t *testing.T) {
	test := `{"op":"test","path":"/services/0/id","value":"api"}`
	many := "[" + strings.Repeat(test+",", MaxPatchOps) + test + "]"
	copies := "[" + strings.Repeat(`{"op":"copy","from":"/services","path":"/services/-"},`, 39) + `{"op":"copy","from":"/services","path":"/services/-"}]`
	big := `[{"op":"replace","path":"/services/0/name","value":"` + strings.Repeat("x", MaxPatchBytes) + `"}]`
	tests := []struct {
		name   string
		ops    string
		index  int
		reason string
	}{
		{"the invalid fixture: second of two fails", `[{"op":"replace","path":"/services/1/latency","value":999},{"op":"replace","path":"/services/7/latency","value":1}]`, 1, "the path does not exist"},
		{"index out of range", `[{"op":"remove","path":"/services/3"}]`, 0, "no element at that index"},
		{"__proto__", `[{"op":"add","path":"/services/0/__proto__","value":{}}]`, 0, "forbidden path segment __proto__"},
		{"constructor", `[{"op":"replace","path":"/constructor","value":1}]`, 0, "forbidden path segment constructor"},
		{"prototype after a valid op", `[{"op":"replace","path":"/services/0/latency","value":1},{"op":"add","path":"/services/0/prototype","value":1}]`, 1, "forbidden path segment prototype"},
		{"forbidden from", `[{"op":"copy","from":"/__proto__","path":"/services/0/name"}]`, 0, "from: forbidden path segment __proto__"},
		{"escaped forbidden segment", `[{"op":"add","path":"/services/0/__proto~1__","value":1}]`, 0, `unknown key "__proto/__"`},
		{"unescaped ~", `[{"op":"replace","path":"/services/0/lat~ency","value":1}]`, 0, "~ not followed by 0 or 1"},
		{"negative index", `[{"op":"remove","path":"/services/-1"}]`, 0, "negative array index -1"},
		{"leading zero index", `[{"op":"remove","path":"/services/01"}]`, 0, "non-canonical array index 01"},
		{"plus index", `[{"op":"remove","path":"/services/+1"}]`, 0, "non-canonical array index +1"},
		// json-patch/v5 reads an empty token as the container itself.
		{"empty token: test /", `[{"op":"test","path":"/","value":{"services":[]}}]`, 0, "empty reference token"},
		{"empty token: replace /", `[{"op":"replace","path":"/","value":1}]`, 0, "empty reference token"},
		{"empty token in from", `[{"op":"copy","from":"/services/0/","path":"/services/1/name"}]`, 0, "from: path has an empty reference token"},
		{"no value", `[{"op":"replace","path":"/services/0/latency"}]`, 0, "replace needs a value"},
		{"no from", `[{"op":"move","path":"/services/0"}]`, 0, "move needs a from path"},
		{"no path", `[{"op":"remove"}]`, 0, "the operation has no path"},
		{"no op", `[{"path":"/services/0"}]`, 0, "the operation has no op"},
		{"op not a string", `[{"op":1,"path":"/services/0"}]`, 0, "op: must be a string"},
		{"operation not an object", `[7]`, 0, "must be an object"},
		{"a member twice", `[{"op":"remove","op":"add","path":"/services/0"}]`, 0, `two "op" members`},
		{"a key twice in the value", `[{"op":"replace","path":"/services/0","value":{"id":"a","id":"b"}}]`, 0, "repeated key"},
		{"unknown op", `[{"op":"merge","path":"/services"}]`, 0, `unknown op "merge"`},
		{"relative path", `[{"op":"remove","path":"services/0"}]`, 0, "path must start with /"},
		{"empty patch", `[]`, -1, "no operations"},
		{"too many operations", many, MaxPatchOps, "oversized patch: more than 64 operations"},
		{"too many bytes", big, 0, "oversized patch: more than 64 KiB"},
		// Each copy doubles the list of about 210 bytes: the 11th would add
		// 210 KiB to the 210 KiB already added, past 256 KiB.
		{"copies past the growth limit", copies, 10, "copies would add more than 256 KiB"},
		{"negative result, one operation", `[{"op":"replace","path":"/services/0/latency","value":-5}]`, 0, "services[0].latency: must be at least 0"},
		{"duplicate id from add", `[{"op":"add","path":"/services/-","value":{"id":"api","name":"API 2","series":"Core","volume":1,"latency":1}}]`, 0, `"api" duplicates services[0]`},
		{"duplicate id from replace", `[{"op":"replace","path":"/services/2/id","value":"api"}]`, 0, `services[2].id: "api" duplicates services[0]`},
		{"invalid result of several operations", `[{"op":"replace","path":"/services/0/latency","value":-1},{"op":"replace","path":"/services/1/latency","value":1}]`, -1, "services[0].latency"},
		{"unknown key added", `[{"op":"add","path":"/services/0/owner","value":"me"}]`, 0, `services[0]: unknown key "owner"`},
		{"test fails", `[{"op":"test","path":"/services/0/latency","value":61}]`, 0, "test failed"},
		{"test of a missing member", `[{"op":"test","path":"/services/0/owner","value":null}]`, 0, "the path does not exist"},
		{"test of an array holding null", `[{"op":"test","path":"/services","value":[null]}]`, 0, "test failed"},
		// The first operation that fails is named, whatever the kind of failure.
		{"apply failure before a later guard failure", `[{"op":"remove","path":"/services/9"},{"op":"add","path":"/services/0/__proto__","value":1}]`, 0, "no element at that index"},
		// Keys are exact: a case variant is another key.
		{"add /SERVICES", `[{"op":"add","path":"/SERVICES","value":[]}]`, 0, `the state: unknown key "SERVICES"`},
		{"add /services/0/ID", `[{"op":"add","path":"/services/0/ID","value":"x"}]`, 0, `services[0]: unknown key "ID"`},
		{"add /services/0/LATENCY", `[{"op":"add","path":"/services/0/LATENCY","value":7}]`, 0, `services[0]: unknown key "LATENCY"`},
		{"a key with a long s", `[{"op":"add","path":"/services/0/ſeries","value":"Core"}]`, 0, `services[0]: unknown key "ſeries"`},
		{"remove a measure", `[{"op":"remove","path":"/services/0/latency"}]`, 0, "services[0].latency: is required"},
		{"null measure", `[{"op":"replace","path":"/services/0/volume","value":null}]`, 0, "services[0].volume: must be a number, not null"},
		{"string measure", `[{"op":"replace","path":"/services/1/volume","value":"640"}]`, 0, "services[1].volume: must be a number, not a string"},
		{"null name", `[{"op":"replace","path":"/services/1/name","value":null}]`, 0, "services[1].name: must be a string, not null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := initialWire()
			ops := operations(t, tt.ops)
			next, r := ApplyPatch(before, ops, "run-1")
			if r == nil {
				t.Fatalf("accepted: %+v", next.Services())
			}
			if !slices.Equal(next.Services(), initialWire().Services()) || !slices.Equal(before.Services(), initialWire().Services()) {
				t.Errorf("state changed: %+v", next.Services())
			}
			if r.Index != tt.index || !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("rejection %+v, want index %d and reason %q", r, tt.index, tt.reason)
			}
			if r.RunID != "run-1" || r.Event != events.EventTypeStateDelta || r.Ops != len(ops) {
				t.Errorf("evidence %+v", r)
			}
			if tt.index >= 0 && (r.Op != ops[tt.index].Op || r.Path != ops[tt.index].Path) && len(ops[tt.index].Path) < maxEvidence {
				t.Errorf("evidence names %s %s", r.Op, r.Path)
			}
			if len(r.Reason) > maxEvidence+len("…") || len(r.Path) > maxEvidence+len("…") {
				t.Errorf("unbounded evidence: %d bytes", len(r.Reason))
			}
		})
	}
}

// A panic inside json-patch/v5 becomes a rejection, never a dead app.
func TestLibraryPanicIsRecovered(t *testing.T) {
	out, err := applyLibrary(nil, []byte(`{}`), nil) // nil options: the library dereferences them
	if out != nil || err == nil || !strings.Contains(err.Error(), "the patch library failed") {
		t.Fatalf("applyLibrary = %q, %v", out, err)
	}
}

func TestRejectionNamesTheOperation(t *testing.T) {
	_, r := ApplyPatch(initialWire(), operations(t, `[{"op":"replace","path":"/services/1/latency","value":999},{"op":"replace","path":"/services/7/latency","value":1}]`), "run-1")
	if got := r.Operation(); got != "operation 2 of 2 (replace /services/7/latency)" {
		t.Errorf("Operation() = %q", got)
	}
}

func TestDecodeDeltaKeepsNullDistinctFromAbsent(t *testing.T) {
	ops := operations(t, `[{"op":"replace","path":"/a","value":null},{"op":"remove","path":"/b"}]`)
	if string(ops[0].Value) != "null" || ops[1].Value != nil {
		t.Errorf("values %q and %q", ops[0].Value, ops[1].Value)
	}
	for _, bad := range []string{`{"type":"STATE_DELTA"}`, `{"type":"STATE_DELTA","delta":{}}`, `{"type":"STATE_DELTA","delta":[],"delta":[]}`, `{"type":"STATE_DELTA","delta":[{"op":}]}`} {
		if _, err := DecodeDelta([]byte(bad)); err == nil {
			t.Errorf("%s: read", bad)
		}
	}
}

func TestBoundKeepsUTF8Whole(t *testing.T) {
	s := strings.Repeat("é", maxEvidence) // 2 bytes each
	b := Bound(s)
	if !strings.HasSuffix(b, "…") || !strings.HasPrefix(s, strings.TrimSuffix(b, "…")) || len(b) > maxEvidence+len("…") {
		t.Errorf("bound = %q", b)
	}
	if strings.ContainsRune(b, '\uFFFD') {
		t.Error("split a character")
	}
}
