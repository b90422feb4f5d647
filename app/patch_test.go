package app

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

type op = events.JSONPatchOperation

func TestApplyPatchAccepts(t *testing.T) {
	search := map[string]any{"id": "search", "name": "Search", "series": "Platform", "volume": 410.0, "latency": 71.0}
	tests := []struct {
		name  string
		ops   []op
		check func(Wire) bool
	}{
		{"replace a latency", []op{{Op: "replace", Path: "/services/0/latency", Value: 145.0}},
			func(w Wire) bool { return w.Services[0].Latency == 145 }},
		{"append a service", []op{{Op: "add", Path: "/services/-", Value: search}},
			func(w Wire) bool { return len(w.Services) == 4 && w.Services[3].ID == "search" }},
		{"remove a service", []op{{Op: "remove", Path: "/services/1"}},
			func(w Wire) bool { return len(w.Services) == 2 && w.Services[1].ID == "auth" }},
		{"move a service", []op{{Op: "move", From: "/services/2", Path: "/services/0"}},
			func(w Wire) bool { return w.Services[0].ID == "auth" && w.Services[1].ID == "api" }},
		{"test then replace", []op{{Op: "test", Path: "/services/1/latency", Value: 92.0}, {Op: "replace", Path: "/services/1/latency", Value: 93.0}},
			func(w Wire) bool { return w.Services[1].Latency == 93 }},
		{"replace the whole state", []op{{Op: "replace", Path: "", Value: map[string]any{"services": []any{}}}},
			func(w Wire) bool { return len(w.Services) == 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := initialWire()
			next, r := ApplyPatch(before, tt.ops, "run-1")
			if r != nil {
				t.Fatalf("rejected: %v", r)
			}
			if !tt.check(next) {
				t.Errorf("result %+v", next)
			}
			if !reflect.DeepEqual(before, initialWire()) {
				t.Errorf("input changed: %+v", before)
			}
		})
	}
}

func TestApplyPatchRejectsWhole(t *testing.T) {
	many := make([]op, MaxPatchOps+1)
	for i := range many {
		many[i] = op{Op: "test", Path: "/services/0/id", Value: "api"}
	}
	copies := make([]op, 40)
	for i := range copies {
		copies[i] = op{Op: "copy", From: "/services", Path: "/services/-"} // doubles the state
	}
	tests := []struct {
		name   string
		ops    []op
		index  int
		reason string
	}{
		{"the invalid fixture: second of two fails", []op{
			{Op: "replace", Path: "/services/1/latency", Value: 999.0},
			{Op: "replace", Path: "/services/7/latency", Value: 1.0},
		}, 1, "the path does not exist"},
		{"index out of range", []op{{Op: "remove", Path: "/services/3"}}, 0, "no element at that index"},
		{"__proto__", []op{{Op: "add", Path: "/services/0/__proto__", Value: map[string]any{}}}, 0, "forbidden path segment __proto__"},
		{"constructor", []op{{Op: "replace", Path: "/constructor", Value: 1.0}}, 0, "forbidden path segment constructor"},
		{"prototype after a valid op", []op{
			{Op: "replace", Path: "/services/0/latency", Value: 1.0},
			{Op: "add", Path: "/services/0/prototype", Value: 1.0},
		}, 1, "forbidden path segment prototype"},
		{"forbidden from", []op{{Op: "copy", From: "/__proto__", Path: "/services/0/name"}}, 0, "from: forbidden path segment __proto__"},
		{"escaped segment", []op{{Op: "add", Path: "/services/0/__proto~1__", Value: 1.0}}, 0, "unknown field"},
		{"negative index", []op{{Op: "remove", Path: "/services/-1"}}, 0, "negative array index -1"},
		{"leading zero index", []op{{Op: "remove", Path: "/services/01"}}, 0, "non-canonical array index 01"},
		{"plus index", []op{{Op: "remove", Path: "/services/+1"}}, 0, "non-canonical array index +1"},
		{"no value", []op{{Op: "replace", Path: "/services/0/latency"}}, 0, "replace needs a value"},
		{"no from", []op{{Op: "move", Path: "/services/0"}}, 0, "move needs a from path"},
		{"unknown op", []op{{Op: "merge", Path: "/services"}}, 0, `unknown op "merge"`},
		{"relative path", []op{{Op: "remove", Path: "services/0"}}, 0, "path must start with /"},
		{"empty patch", nil, -1, "no operations"},
		{"too many operations", many, -1, "oversized patch: 65 operations"},
		{"too many bytes", []op{{Op: "replace", Path: "/services/0/name", Value: strings.Repeat("x", MaxPatchBytes)}}, -1, "oversized patch"},
		// Each copy doubles the state: the 12th takes the growth past 256 KiB.
		{"copies past the growth limit", copies, 11, "exceeding the limit"},
		{"negative result, one operation", []op{{Op: "replace", Path: "/services/0/latency", Value: -5.0}}, 0, "services[0].latency: must be at least 0"},
		{"duplicate id from add", []op{{Op: "add", Path: "/services/-", Value: map[string]any{"id": "api", "name": "API 2", "series": "Core", "volume": 1.0, "latency": 1.0}}}, 0, `"api" duplicates services[0]`},
		{"invalid result of several operations", []op{
			{Op: "replace", Path: "/services/0/latency", Value: -1.0},
			{Op: "replace", Path: "/services/1/latency", Value: 1.0},
		}, -1, "services[0].latency"},
		{"unknown field added", []op{{Op: "add", Path: "/services/0/owner", Value: "me"}}, 0, `unknown field "owner"`},
		{"test fails", []op{{Op: "test", Path: "/services/0/latency", Value: 61.0}}, 0, "test failed"},
		// json-patch panics comparing arrays holding null: recovered, rejected.
		{"library panic", []op{{Op: "test", Path: "/services", Value: []any{nil}}}, 0, ""},
		{"not encodable", []op{{Op: "replace", Path: "/services/0/latency", Value: func() {}}}, 0, "value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := initialWire()
			next, r := ApplyPatch(before, tt.ops, "run-1")
			if r == nil {
				t.Fatalf("accepted: %+v", next)
			}
			if !reflect.DeepEqual(next, initialWire()) || !reflect.DeepEqual(before, initialWire()) {
				t.Errorf("state changed: %+v", next)
			}
			if r.Index != tt.index || !strings.Contains(r.Reason, tt.reason) {
				t.Errorf("rejection %+v, want index %d and reason %q", r, tt.index, tt.reason)
			}
			if r.RunID != "run-1" || r.Event != events.EventTypeStateDelta || r.Ops != len(tt.ops) {
				t.Errorf("evidence %+v", r)
			}
			if tt.index >= 0 && (r.Op != tt.ops[tt.index].Op || r.Path != tt.ops[tt.index].Path) && len(tt.ops[tt.index].Path) < maxEvidence {
				t.Errorf("evidence names %s %s", r.Op, r.Path)
			}
			if len(r.Reason) > maxEvidence+len("…") || len(r.Path) > maxEvidence+len("…") {
				t.Errorf("unbounded evidence: %d bytes", len(r.Reason))
			}
		})
	}
}

func TestRejectionNamesTheOperation(t *testing.T) {
	_, r := ApplyPatch(initialWire(), []op{
		{Op: "replace", Path: "/services/1/latency", Value: 999.0},
		{Op: "replace", Path: "/services/7/latency", Value: 1.0},
	}, "run-1")
	if got := r.Operation(); got != "operation 2 of 2 (replace /services/7/latency)" {
		t.Errorf("Operation() = %q", got)
	}
}

func TestBoundKeepsUTF8Whole(t *testing.T) {
	s := strings.Repeat("é", maxEvidence) // 2 bytes each
	b := bound(s)
	if !strings.HasSuffix(b, "…") || !strings.HasPrefix(s, strings.TrimSuffix(b, "…")) || len(b) > maxEvidence+len("…") {
		t.Errorf("bound = %q", b)
	}
	if strings.ContainsRune(b, '\uFFFD') {
		t.Error("split a character")
	}
}
