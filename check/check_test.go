package check

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/app/patch"
)

func TestFilesAgreeAndDisagree(t *testing.T) {
	results, err := Files([]string{"testdata/scripts"}, true)
	if err != nil {
		t.Fatal(err)
	}
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
	if r := got["after-finish"]; r.OK || !strings.Contains(r.Why[0], "after-finish at event 2") {
		t.Errorf("after-finish: %+v", r)
	}
	wrong := got["wrong-expectations"]
	want := []string{
		"outcome completed (every run ended), want failed",
		`runError "the model is overloaded", want one containing "rate limited"`,
		"messages [",
		"1 messages, want 2",
		"RUN_ERROR was delivered",
	}
	if wrong.OK || len(wrong.Why) != len(want) {
		t.Fatalf("wrong-expectations: %q", wrong.Why)
	}
	for i, w := range want {
		if !strings.HasPrefix(wrong.Why[i], w) {
			t.Errorf("disagreement %d: %q, want %q", i, wrong.Why[i], w)
		}
	}
	// A SHOULD-level difference is a note, never a failure.
	if len(wrong.Notes) != 1 || !strings.Contains(wrong.Notes[0], "/extra") {
		t.Errorf("notes %q", wrong.Notes)
	}
}

func TestWithoutExpectAStreamMustBeValid(t *testing.T) {
	r := File("testdata/scripts/wrong-expectations.json", false)
	if !r.OK || len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "warning (unknown-member)") {
		t.Errorf("%+v", r)
	}
	r = File("testdata/scripts/missing.json", true)
	if r.OK || !strings.Contains(r.Why[0], "no such file") {
		t.Errorf("%+v", r)
	}
	if _, err := Files([]string{"testdata"}, true); err == nil || !strings.Contains(err.Error(), "no .json or .jsonl script") {
		t.Errorf("a directory without scripts: %v", err)
	}
}

func TestSubset(t *testing.T) {
	v := func(s string) patch.Value {
		x, err := patch.Decode([]byte(s))
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
	results := []Result{{Name: "a", OK: true, Notes: []string{"n"}}, {Name: "b", Why: []string{"x", "y"}}}
	var b bytes.Buffer
	Print(&b, results, false)
	if want := "ok   a\nFAIL b: x; y\n1 passed, 1 failed (1 notes at SHOULD or wording level: -v lists them)\n"; b.String() != want {
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
	if err := json.Unmarshal(b.Bytes(), &report); err != nil || report.Passed != 1 || report.Failed != 1 || report.Results[1].Why[1] != "y" {
		t.Errorf("%+v %v", report, err)
	}
}
