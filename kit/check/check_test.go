package check

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

func TestFilesAgreeAndDisagree(t *testing.T) {
	results := Files([]string{"testdata/scripts"}, true)
	got := map[string]Result{}
	for _, r := range results {
		got[r.Name] = r
	}
	if r := got["delta-applies"]; !r.OK || len(r.Notes) != 0 {
		t.Errorf("delta-applies: %+v", r)
	}
	if r := got["valid"]; !r.OK {
		t.Errorf("valid: %+v", r)
	}
	if r := got["after-finish"]; r.OK || r.Failures[0].Rule != "after-finish" || r.Failures[0].Event != 3 || !strings.HasPrefix(r.Failures[0].Text, "STATE_DELTA after run") {
		t.Errorf("after-finish: %+v", r)
	}
	wrong := got["wrong-expectations"]
	want := []rules.Failure{
		{Rule: "expect.outcome", Text: "outcome completed (every run ended), want failed"},
		{Rule: "expect.runError", Text: `runError "the model is overloaded", want one containing "rate limited"`},
		{Rule: "expect.messages", Text: "messages ["},
		{Rule: "expect.messageCount", Text: "1 messages, want 2"},
		{Rule: "expect.eventTypesAbsent", Text: "RUN_ERROR was delivered"},
	}
	if wrong.OK || len(wrong.Failures) != len(want) {
		t.Fatalf("wrong-expectations: %+v", wrong.Failures)
	}
	for i, w := range want {
		if got := wrong.Failures[i]; got.Rule != w.Rule || !strings.HasPrefix(got.Text, w.Text) {
			t.Errorf("disagreement %d: %+v, want %+v", i, got, w)
		}
	}
	// A SHOULD-level difference is a note, never a failure.
	if len(wrong.Notes) != 1 || !strings.Contains(wrong.Notes[0], "/extra") {
		t.Errorf("notes %q", wrong.Notes)
	}
}

func TestWithoutExpectAStreamMustBeValid(t *testing.T) {
	r := File("testdata/scripts/wrong-expectations.json", false)[0]
	if !r.OK || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "warning (unknown-member)") {
		t.Errorf("%+v", r)
	}
	r = File("testdata/scripts/missing.json", true)[0]
	if r.OK || r.Failures[0].Rule != rules.File || !strings.Contains(r.Failures[0].Text, "no such file") {
		t.Errorf("%+v", r)
	}
	// A directory that holds no script fails as a file would, and the
	// other paths are still judged.
	results := Files([]string{"testdata", "testdata/scripts/valid.jsonl"}, true)
	if len(results) != 2 || results[0].OK || results[0].Failures[0].Rule != rules.File ||
		!strings.Contains(results[0].Failures[0].Text, "no .json or .jsonl script") || !results[1].OK {
		t.Errorf("a directory without scripts: %+v", results)
	}
}

func TestSubset(t *testing.T) {
	v := func(s string) jsonpatch.Value {
		x, err := jsonpatch.Decode([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tt := range []struct {
		got, want string
		ok        bool
	}{
		{`{"a":1,"b":2}`, `{"a":1.0}`, true},
		{`{"a":1}`, `{"b":1}`, false},
		{`[1,2]`, `[1]`, false}, // arrays are matched at the same length
		{`[{"a":1,"x":0}]`, `[{"a":1}]`, true},
		{`null`, `null`, true},
		{`0`, `null`, false},
		{`"s"`, `"s"`, true},
	} {
		if subset(v(tt.got), v(tt.want)) != tt.ok {
			t.Errorf("subset(%s, %s) != %v", tt.got, tt.want, tt.ok)
		}
	}
}

func TestPrint(t *testing.T) {
	results := []Result{{Name: "a", OK: true, Notes: []string{"n"}}, {Name: "b", Failures: []rules.Failure{{Rule: "r1", Text: "x"}, {Rule: "r2", Text: "y"}}}}
	var b bytes.Buffer
	Print(&b, results, false)
	if want := "ok   a\nFAIL b: r1: x\n     and r2: y\n1 passed, 1 failed (1 note at SHOULD or wording level: -v lists them)\n"; b.String() != want {
		t.Errorf("%q", b.String())
	}
	b.Reset()
	Print(&b, results, true)
	if !strings.Contains(b.String(), "ok   a\n     note: n\n") {
		t.Errorf("%q", b.String())
	}
	b.Reset()
	if err := PrintJSON(&b, results); err != nil {
		t.Fatal(err)
	}
	var report struct {
		Passed, Failed int
		Results        []Result
	}
	if err := json.Unmarshal(b.Bytes(), &report); err != nil || report.Passed != 1 || report.Failed != 1 || report.Results[1].Failures[1] != (rules.Failure{Rule: "r2", Text: "y"}) {
		t.Errorf("%+v %v", report, err)
	}
}

// The corpus-shaped files make conformance streams to the official client
// say what this engine ends with too.
func TestTheConformanceStreamsAgreeWithTheEngine(t *testing.T) {
	results := Files([]string{"../../bench/conformance/streams"}, true)
	if len(results) < 6 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if !r.OK {
			t.Errorf("%s: %+v", r.Path, r.Failures)
		}
	}
}
