package check

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
)

func TestFilesAgreeAndDisagree(t *testing.T) {
	results, _ := Files([]string{"testdata/scripts"}, true)
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
	// A directory's folders are skipped, each said to be; the other
	// paths are still judged.
	results, skipped := Files([]string{"testdata", "testdata/scripts/valid.jsonl"}, true)
	if len(results) != 1 || !results[0].OK || len(skipped) != 3 || skipped[0].Path != filepath.Join("testdata", "captures") ||
		!strings.HasPrefix(skipped[0].Why, "a folder") {
		t.Errorf("a directory of folders: %+v %+v", results, skipped)
	}
}

// Every file of a directory is judged, whatever its name, or skipped,
// saying why: scripts, JSON Lines and captures by their content; a README
// or a manifest skipped; one that cannot be read, or a script that does
// not parse, fails; nothing passes in silence.
func TestADirectoryMixingGoodBadAndUnreadableFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string { return testfile.Write(t, dir, name, content) }
	write("a-good.jsonl", `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n"+`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`+"\n")
	write("b-capture.sse", "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"STATE_DELTA\",\"delta\":[]}\n\n")
	write("c-capture.txt", ": keep-alive\n\ndata: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\ndata: {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
	write("d-broken.json", `[{"type":"RUN_STARTED"`)
	write("e-error-body.json", `{"detail":"Not Found"}`)
	write("README.md", "# Captures\n")
	write("MANIFEST.txt", "a-good.jsonl\n")
	write("empty.json", "")
	locked := write("f-locked.json", `[]`)
	os.Mkdir(filepath.Join(dir, "more"), 0o755)
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	unreadable := true
	if f, err := os.Open(locked); err == nil { // root reads anything
		f.Close()
		unreadable = false
	}
	results, skipped := Files([]string{dir}, false)
	got := map[string]string{}
	for _, r := range results {
		got[r.Name] = "ok"
		if !r.OK {
			got[r.Name] = r.Failures[0].Rule
		}
	}
	want := map[string]string{"a-good": "ok", "b-capture": "truncated", "c-capture": "ok", "d-broken": rules.File, "e-error-body": rules.File, "f-locked": rules.File}
	if !unreadable {
		want["f-locked"] = rules.File // [] holds no event
	}
	if !maps.Equal(got, want) {
		t.Errorf("judged %v, want %v", got, want)
	}
	var names []string
	for _, s := range skipped {
		names = append(names, filepath.Base(s.Path)+": "+s.Why)
	}
	if strings.Join(names, "\n") != `MANIFEST.txt: neither a script (JSON) nor a capture (SSE): it starts "a-good.jsonl"
README.md: neither a script (JSON) nor a capture (SSE): it starts "# Captures"
empty.json: empty, or only white space
more: a folder: check reads the files of the folders it is given, not of theirs` {
		t.Errorf("skipped:\n%s", strings.Join(names, "\n"))
	}
	var out bytes.Buffer
	Print(&out, results, skipped, false)
	if !strings.Contains(out.String(), "skip "+filepath.Join(dir, "README.md")+": neither") || !strings.HasSuffix(out.String(), "2 passed, 4 failed, 4 skipped\n") {
		t.Errorf("printed:\n%s", out.String())
	}
}

// A stream may start with any amount of white space: in a folder it is
// judged as it is when named, not skipped as empty.
func TestAFolderSniffsPastLeadingWhiteSpace(t *testing.T) {
	dir := t.TempDir()
	path := testfile.Write(t, dir, "spaced.json", strings.Repeat(" \r\n", 400)+`[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"RUN_FINISHED","threadId":"t","runId":"r"}]`)
	testfile.Write(t, dir, "blank.json", strings.Repeat("\n", 3000))
	named := File(path, false)
	results, skipped := Files([]string{dir}, false)
	if len(named) != 1 || !named[0].OK || len(results) != 1 || !results[0].OK || len(skipped) != 1 || filepath.Base(skipped[0].Path) != "blank.json" {
		t.Errorf("named: %+v; in its folder: %+v, skipped %+v", named, results, skipped)
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
	Print(&b, results, nil, false)
	if want := "ok   a\nFAIL b: r1: x\n     and r2: y\n1 passed, 1 failed (1 note at SHOULD or wording level: -v lists them)\n"; b.String() != want {
		t.Errorf("%q", b.String())
	}
	b.Reset()
	Print(&b, results, nil, true)
	if !strings.Contains(b.String(), "ok   a\n     note: n\n") {
		t.Errorf("%q", b.String())
	}
	b.Reset()
	if err := PrintJSON(&b, results, nil); err != nil {
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

// A name (a script's "name", a file's) is shown as one line of the
// report, whatever it holds: a line end or a terminal's escape in it is
// escaped, so that it cannot forge a line or move the cursor.
func TestPrintShowsANameOnOneLine(t *testing.T) {
	r := Data("x.json", []byte(`{"name":"x\nok   forged\n1 passed, 0 failed\u001b[31m\u2028","stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"}]}`), false)
	r = append(r, Result{Name: "a b", OK: true})
	var b bytes.Buffer
	Print(&b, r, []Skipped{{Path: "d/a\nok   evil.jsonl", Why: "empty, or only white space"}}, false)
	want := `skip d/a\nok   evil.jsonl: empty, or only white space
FAIL x\nok   forged\n1 passed, 0 failed\x1b[31m\u2028: truncated: `
	if !strings.HasPrefix(b.String(), want) || !strings.HasSuffix(b.String(), "\nok   a b\n1 passed, 1 failed, 1 skipped\n") {
		t.Errorf("%s", b.String())
	}
}

// The corpus-shaped files make conformance streams to the official client
// say what this engine ends with too.
func TestTheConformanceStreamsAgreeWithTheEngine(t *testing.T) {
	results, _ := Files([]string{"../../bench/conformance/streams"}, true)
	if len(results) < 6 {
		t.Fatalf("%d results", len(results))
	}
	for _, r := range results {
		if !r.OK {
			t.Errorf("%s: %+v", r.Path, r.Failures)
		}
	}
}

// A run the agent reported failed (RUN_ERROR) is legal AG-UI, not a
// failure, and no success either: its line says what the agent said.
func TestAnErroredRunSaysSo(t *testing.T) {
	res := File("../../fixtures/run-error.json", false)
	if len(res) != 1 || !res[0].OK || !strings.HasPrefix(res[0].Errored, `the agent reported an error: RUN_ERROR "`) {
		t.Fatalf("%+v", res)
	}
	var out bytes.Buffer
	Print(&out, res, nil, false)
	if !strings.HasPrefix(out.String(), "ok   run-error (the agent reported an error: RUN_ERROR \"") {
		t.Errorf("%s", out.String())
	}
}

// A RUN_ERROR is reported whatever its message says, "" included.
func TestARunErrorWithAnEmptyMessageIsOne(t *testing.T) {
	doc := `{"name":"re","stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"RUN_ERROR","message":""}],"expect":{"runError":true}}`
	r := Data("re.json", []byte(doc), true)
	if len(r) != 1 || !r[0].OK {
		t.Errorf("%+v", r)
	}
}

// An expect is read exactly, as a script is: a member given twice, one
// named in another case, or one of the wrong type is refused, saying
// which, for each would assert what the file does not say.
func TestAnExpectIsReadExactly(t *testing.T) {
	for expect, says := range map[string]string{
		`{"outcome":"failed","outcome":"completed"}`: `the expect gives "outcome" twice`,
		`{"Outcome":"completed"}`:                    `the expect has no member "Outcome": names are case-sensitive ("outcome")`,
		`{"outcomes":"completed"}`:                   `the expect has no member "outcomes" (it has "outcome", `,
		`{"outcome":"done"}`:                         `outcome must be "completed" or "failed", not "done"`,
		`{"outcome":null}`:                           `outcome must be a string, not null`,
		`{"runError":1}`:                             `runError must be true, false or a string`,
		`{"messageCount":"2"}`:                       `messageCount must be a whole number, not "2"`,
		`{"messageCount":1.5}`:                       `messageCount must be a whole number, not 1.5`,
		`{"eventTypes":["RUN_STARTED",3]}`:           `eventTypes 1 must be a string, not a number`,
		`{"eventPaths":[]}`:                          `eventPaths is a JSON object, not an array`,
		`{"noWarnings":"yes"}`:                       `noWarnings must be true or false`,
		`[]`:                                         `the expect is a JSON object, not an array`,
	} {
		r := Data("e.json", []byte(`{"stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"RUN_FINISHED","threadId":"t","runId":"r"}],"expect":`+expect+`}`), true)[0]
		if r.OK || len(r.Failures) != 1 || r.Failures[0].Rule != rules.Expect || !strings.HasPrefix(r.Failures[0].Text, says) {
			t.Errorf("%s: %+v, want %s", expect, r.Failures, says)
		}
	}
	doc := `{"stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"RUN_FINISHED","threadId":"t","runId":"r"}],
	 "expect":{"outcome":"completed","runError":false,"state":{},"messages":[],"messageCount":0,"eventTypes":["RUN_STARTED","RUN_FINISHED"],
	  "eventTypesAbsent":[],"eventPaths":{"0.runId":"r"},"eventAbsentPaths":["0.x"],"request":{"threadId":"t"},"requestAbsentPaths":[],
	  "warnings":[],"noWarnings":true,"errorContains":""}}`
	if r := Data("e.json", []byte(doc), true)[0]; !r.OK {
		t.Errorf("every member: %+v", r.Failures)
	}
}

// A report is the same for the same file: eventPaths' failures come in
// the order of their paths, not a map's.
func TestEventPathsFailInOrder(t *testing.T) {
	doc := []byte(`{"stream":[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"RUN_FINISHED","threadId":"t","runId":"r"}],
	 "expect":{"eventPaths":{"1.f":6,"0.a":1,"0.e":5,"0.b":2,"0.d":4,"0.c":3}}}`)
	r := Data("e.json", doc, true)[0]
	var paths []string
	for _, f := range r.Failures {
		paths = append(paths, strings.Fields(f.Text)[2])
	}
	if got := strings.Join(paths, " "); got != "0.a 0.b 0.c 0.d 0.e 1.f" {
		t.Errorf("failures in the order %s", got)
	}
}
