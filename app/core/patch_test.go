package core

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
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
			next, err := ApplyPatch(before, opsOf(t, tt.ops))
			if err != nil {
				t.Fatalf("refused: %v", err)
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

func TestApplyPatchRefusesWhole(t *testing.T) {
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
		{"a negative index", `[{"op":"remove","path":"/services/-1"}]`, 0, "no element at that index"},
		{"a leading zero", `[{"op":"remove","path":"/services/01"}]`, 0, "no element at that index"},
		{"a plus sign", `[{"op":"remove","path":"/services/+1"}]`, 0, "no element at that index"},
		// An empty token names the member "", which no Wire has.
		{"test /", `[{"op":"test","path":"/","value":{"services":[]}}]`, 0, "the path does not exist"},
		{"replace /", `[{"op":"replace","path":"/","value":1}]`, 0, "the path does not exist"},
		{"add /services/0/", `[{"op":"add","path":"/services/0/","value":1}]`, 0, `services[0]: unknown key ""`},
		{"too many operations", many, MaxPatchOps, "oversized patch: more than 64 operations"},
		{"too many bytes", big, 0, "oversized patch: more than 64 KiB"},
		// Each copy doubles the list of about 210 bytes: the 11th would add
		// 210 KiB to the 210 KiB already added, past 256 KiB.
		{"copies past the growth bound", copies, 10, "the patch would add more than 256 KiB"},
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
		{"a key with a long s", `[{"op":"add","path":"/services/0/ſeries","value":"Core"}]`, 0, `services[0]: unknown key "ſeries"`},
		{"remove a measure", `[{"op":"remove","path":"/services/0/latency"}]`, 0, "services[0].latency: is required"},
		{"null measure", `[{"op":"replace","path":"/services/0/volume","value":null}]`, 0, "services[0].volume: must be a number, not null"},
		{"string measure", `[{"op":"replace","path":"/services/1/volume","value":"640"}]`, 0, "services[1].volume: must be a number, not a string"},
		{"null name", `[{"op":"replace","path":"/services/1/name","value":null}]`, 0, "services[1].name: must be a string, not null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := initialWire()
			ops := opsOf(t, tt.ops)
			next, err := ApplyPatch(before, ops)
			var pe *jsonpatch.Error
			if !errors.As(err, &pe) {
				t.Fatalf("accepted, or refused without naming an operation: %v %+v", err, next.Services())
			}
			if !slices.Equal(next.Services(), initialWire().Services()) || !slices.Equal(before.Services(), initialWire().Services()) {
				t.Errorf("state changed: %+v", next.Services())
			}
			if pe.Index != tt.index || !strings.Contains(pe.Reason, tt.reason) {
				t.Errorf("refusal %+v, want index %d and reason %q", pe, tt.index, tt.reason)
			}
			if tt.index >= 0 && (pe.Op != ops[tt.index].Op || pe.Path != ops[tt.index].Path) {
				t.Errorf("it names %s %s", pe.Op, pe.Path)
			}
		})
	}
}

// An empty patch is a valid one that changes nothing (events/state).
func TestAnEmptyPatchChangesNothing(t *testing.T) {
	w := initialWire()
	next, err := ApplyPatch(w, nil)
	if err != nil || !slices.Equal(next.Services(), w.Services()) {
		t.Errorf("%v %+v", err, next.Services())
	}
}

// A cut backs over at most a character's continuation bytes, even in
// bytes that are no UTF-8 at all.
func TestRuneCutBacksOverOneCharacterAtMost(t *testing.T) {
	if got := runeCut("ab€c", 3); got != 2 { // € is 3 bytes, from offset 2
		t.Errorf("cut inside € at %d", got)
	}
	if got := runeCut(strings.Repeat("\x80", 10), 8); got != 5 {
		t.Errorf("cut continuation bytes at %d, not 5", got)
	}
}

func TestClipKeepsUTF8Whole(t *testing.T) {
	s := strings.Repeat("é", maxEvidence) // 2 bytes each
	b := Clip(s)
	if !strings.HasSuffix(b, "…") || !strings.HasPrefix(s, strings.TrimSuffix(b, "…")) || len(b) > maxEvidence+len("…") {
		t.Errorf("Clip = %q", b)
	}
	if strings.ContainsRune(b, '\uFFFD') {
		t.Error("split a character")
	}
}
