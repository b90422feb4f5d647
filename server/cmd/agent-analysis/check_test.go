package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/sarif"
	"github.com/agent-analysis/agent-analysis/kit/sarif/sariftest"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

func TestCheckCommand(t *testing.T) {
	var out, errs bytes.Buffer
	err := run(context.Background(), []string{"check", "-expect", "../../../kit/check/testdata/scripts"}, &out, &errs)
	if !errors.Is(err, errFailed) {
		t.Fatalf("err %v", err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 10 || lines[0] != "FAIL after-finish: after-finish at event 3: STATE_DELTA after run \"r\" finished: only RUN_STARTED or RUN_ERROR may follow RUN_FINISHED (https://docs.ag-ui.com/spec/1.0/events/lifecycle)" ||
		lines[1] != "ok   delta-applies" || lines[3] != "FAIL wrong-expectations: expect.outcome: outcome completed (every run ended), want failed ("+rules.Guide+")" ||
		lines[4] != "     and expect.runError: runError \"the model is overloaded\", want one containing \"rate limited\" ("+rules.Guide+")" ||
		lines[8] != "     the agent reported an error: RUN_ERROR \"the model is overloaded\"" || lines[9] != "2 passed, 2 failed (1 note at SHOULD or wording level: -v lists them)" {
		t.Errorf("output:\n%s", out.String())
	}

	out.Reset()
	if err := run(context.Background(), []string{"check", "-json", "../../../kit/check/testdata/scripts/valid.jsonl"}, &out, io.Discard); err != nil {
		t.Fatalf("a valid script: %v", err)
	}
	var report struct{ Passed, Failed int }
	if json.Unmarshal(out.Bytes(), &report) != nil || report.Passed != 1 || report.Failed != 0 {
		t.Errorf("json: %s", out.String())
	}

	for _, args := range [][]string{{"check"}, {"check", "no-such-dir"}, {"check", "-nope", "x"}} {
		if err := run(context.Background(), args, io.Discard, io.Discard); err == nil || errors.Is(err, errFailed) {
			t.Errorf("%v: %v", args, err)
		}
	}
	errs.Reset()
	if err := run(context.Background(), []string{"check", "-h"}, &errs, io.Discard); err != nil || !strings.Contains(errs.String(), "Usage: agent-analysis check") {
		t.Errorf("-h: %v %s", err, errs.String())
	}
}

// check -url runs a live agent: a fault fails by its rule, in the lines,
// the JSON report and the JUnit file alike; the exit status is 1.
func TestCheckURL(t *testing.T) {
	api := servertest.Ours(t)
	junit := filepath.Join(t.TempDir(), "report.xml")
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "-url", api, "-scenario", "events-after-finish", "-junit", junit}, &out, io.Discard)
	lines := strings.Split(out.String(), "\n")
	if !errors.Is(err, errFailed) || !strings.HasPrefix(lines[0], "FAIL events-after-finish: after-finish at event 5: ") ||
		!strings.HasPrefix(lines[1], "     200 text/event-stream · ") || lines[2] != "0 passed, 1 failed" {
		t.Errorf("%v\n%s", err, out.String())
	}
	raw, _ := os.ReadFile(junit)
	var doc struct {
		Suites []struct {
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure struct {
					Type string `xml:"type,attr"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil || doc.Suites[0].Cases[0].Failure.Type != "after-finish" {
		t.Errorf("%v\n%s", err, raw)
	}

	// Two inputs are two runs; -json reports each with its transport.
	dir := t.TempDir()
	for name, scenario := range map[string]string{"a": "normal", "b": "no-terminal-event"} {
		os.WriteFile(filepath.Join(dir, name+".json"), []byte(`{"state":{"services":[]},"forwardedProps":{"scenario":"`+scenario+`"}}`), 0o644)
	}
	out.Reset()
	err = run(t.Context(), []string{"check", "-json", "-url", api, "-input", filepath.Join(dir, "a.json"), "-input", filepath.Join(dir, "b.json")}, &out, io.Discard)
	var report struct {
		Passed, Failed int
		Results        []struct {
			Name      string
			OK        bool
			Failures  []struct{ Rule, Text string }
			Transport struct {
				Status       int
				Events       int
				LongestGapMs *float64
			}
		}
	}
	if json.Unmarshal(out.Bytes(), &report) != nil || !errors.Is(err, errFailed) || report.Passed != 1 || report.Failed != 1 {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if a, b := report.Results[0], report.Results[1]; a.Name != "a" || !a.OK || a.Transport.Status != 200 || a.Transport.Events != 6 || a.Transport.LongestGapMs == nil ||
		b.Name != "b" || len(b.Failures) != 1 || b.Failures[0].Rule != "truncated" {
		t.Errorf("%+v", report.Results)
	}

	// The normal and slow scenarios pass.
	for _, scenario := range []string{"normal", "slow"} {
		if err := run(t.Context(), []string{"check", "-url", api, "-scenario", scenario}, io.Discard, io.Discard); err != nil {
			t.Errorf("%s: %v", scenario, err)
		}
	}
}

// An agent that does not stream fails check -url with a clear line.
func TestCheckURLAgainstAgentsThatDoNotStream(t *testing.T) {
	silent := servertest.Upstream(t, servertest.NeverAnswers)
	html := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<h1>Not here</h1>")
	})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-url", silent, "-timeout", "100ms", "-name", "normal"}, "FAIL normal: timeout: no answer within 100ms: the agent sent no response headers (" + rules.Guide + ")\n     no answer · "},
		{[]string{"-url", html + "/agui"}, `FAIL agui: content-type: the answer is "text/html", not text/event-stream or application/vnd.ag-ui.event+proto: "<h1>Not here</h1>" (https://docs.ag-ui.com/spec/1.0/basic/transports/http-sse)` + "\n     200 text/html · 0 events"},
	} {
		var out bytes.Buffer
		err := run(t.Context(), append([]string{"check"}, tt.args...), &out, io.Discard)
		if !errors.Is(err, errFailed) || !strings.HasPrefix(out.String(), tt.want) {
			t.Errorf("%v\n%s\nwant %q", err, out.String(), tt.want)
		}
	}
}

func TestCheckFlags(t *testing.T) {
	for _, tt := range []struct {
		args []string
		says string
	}{
		{[]string{"-url", "http://x", "file.json"}, "script files or -url, not both"},
		{[]string{"-url", "http://x", "-expect"}, "-expect compares script files"},
		{[]string{"-input", "in.json", "file.json"}, "-input goes with -url"},
		{[]string{"-timeout", "5s", "file.json"}, "-timeout goes with -url"},
		{[]string{"-scenario", "slow", "file.json"}, "-scenario goes with -url"},
		{[]string{"-url", "localhost:8080"}, "is not an http:// or https:// URL"},
		{[]string{"-url", "http://x", "-input", "a.json", "-input", "b.json", "-name", "x"}, "-name names one run"},
		{[]string{"-url", "http://x", "-H", "Authorization Bearer s3cret"}, "-H (the first): a header is Name: value, the name a token (its value is not shown)"},
		{[]string{"-url", "http://x", "-H", "X-A: 1", "-H", "X-Key: a\rb"}, "-H X-Key: a header's value holds no control character (it is not shown)"},
		{[]string{"-url", "http://x", "-cancel-after", "-1"}, `invalid value "-1" for flag -cancel-after: a number of events is 0 or more`},
		{[]string{"-url", "http://x", "-cancel-after", "soon"}, `a number of events (3) or a duration (500ms)`},
		{[]string{"-cancel-after", "3", "file.json"}, "-cancel-after goes with -url"},
		{[]string{"-H", "X-A: 1", "file.json"}, "-H goes with -url"},
		{[]string{"-thread", "t", "file.json"}, "-thread goes with -url"}} {
		if err := run(context.Background(), append([]string{"check"}, tt.args...), io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%v: %v, want %q", tt.args, err, tt.says)
		}
	}
	junit := filepath.Join(t.TempDir(), "no-such-dir", "r.xml")
	if err := run(context.Background(), []string{"check", "-junit", junit, "../../../kit/check/testdata/scripts/valid.jsonl"}, io.Discard, io.Discard); err == nil ||
		err.Error() != "invalid value "+strconv.Quote(junit)+" for flag -junit: the folder "+filepath.Dir(junit)+" does not exist" {
		t.Errorf("-junit into a missing directory: %v", err)
	}
}

// -junit replaces its file whole, by a rename: a CI step reading the old
// report never sees half of the new one.
func TestCheckJUnitIsWrittenWhole(t *testing.T) {
	junit := filepath.Join(t.TempDir(), "report.xml")
	os.WriteFile(junit, []byte("the old report"), 0o644)
	old, err := os.Open(junit)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := run(t.Context(), []string{"check", "-junit", junit, "../../../kit/check/testdata/scripts/valid.jsonl"}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if b, _ := io.ReadAll(old); string(b) != "the old report" {
		t.Errorf("the old report was written over in place: %.60q", b)
	}
	if b, _ := os.ReadFile(junit); !strings.HasPrefix(string(b), "<?xml") {
		t.Errorf("the new report: %.60q", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(junit)); len(entries) != 1 {
		t.Errorf("%d files: a temporary one was left", len(entries))
	}
}

// Ctrl-C stops check -url: the run it interrupts is reported, and no
// other is asked for.
func TestCheckURLStopsWhenInterrupted(t *testing.T) {
	ctx, interrupt := context.WithCancel(t.Context())
	var asked atomic.Int32
	agentURL := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		interrupt() // Ctrl-C, while the first run waits for its answer
		servertest.NeverAnswers(w, r)
	})
	dir := t.TempDir()
	a, b := testfile.Write(t, dir, "a.json", "{}"), testfile.Write(t, dir, "b.json", "{}")
	var out bytes.Buffer
	err := run(ctx, []string{"check", "-url", agentURL, "-input", a, "-input", b}, &out, io.Discard)
	if !errors.Is(err, errFailed) || !strings.HasPrefix(out.String(), "FAIL a: interrupted: the run was interrupted: context canceled ("+rules.Guide+")\n") ||
		!strings.HasSuffix(out.String(), "0 passed, 1 failed\n") || asked.Load() != 1 {
		t.Errorf("%v, asked %d times:\n%s", err, asked.Load(), out.String())
	}
}

// Two -input files of one base name are two testcases of two names: their
// paths; a file given twice is named by its turn too.
func TestCheckURLNamesRunsApart(t *testing.T) {
	api := servertest.Ours(t)
	one, two := t.TempDir(), t.TempDir()
	const normal = `{"state":{"services":[]},"forwardedProps":{"scenario":"normal"}}`
	a, b := testfile.Write(t, one, "ask.json", normal), testfile.Write(t, two, "ask.json", normal)
	c := testfile.Write(t, one, "other.json", normal)
	var out bytes.Buffer
	if err := run(t.Context(), []string{"check", "-url", api, "-input", a, "-input", b, "-input", c, "-input", c}, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	lines := strings.Split(out.String(), "\n")
	if lines[0] != "ok   "+filepath.ToSlash(a) || lines[2] != "ok   "+filepath.ToSlash(b) || lines[4] != "ok   other" || lines[6] != "ok   other #2" {
		t.Errorf("%s", out.String())
	}
}

// A URL's user info and query, where secrets travel, are in no report:
// not the lines, the JSON report nor the JUnit file.
func TestCheckURLReportsNoSecrets(t *testing.T) {
	secret := strings.Replace(servertest.Ours(t), "http://", "http://user:s3cret@", 1) + "?key=s3cret"
	junit := filepath.Join(t.TempDir(), "report.xml")
	for _, args := range [][]string{{"-v"}, {"-json"}} {
		var out bytes.Buffer
		if err := run(t.Context(), append([]string{"check", "-url", secret, "-junit", junit}, args...), &out, io.Discard); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		raw, _ := os.ReadFile(junit)
		if strings.Contains(out.String()+string(raw), "s3cret") || !strings.Contains(string(raw), `classname="http://127.0.0.1:`) {
			t.Errorf("%s\n%s", out.String(), raw)
		}
	}
}

// -strict fails what the engine warned about, by its rule; -sarif writes
// every failure with its rule's page, its file, line and event.
func TestCheckStrictAndSARIF(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my runs") // a URI escapes the space
	os.Mkdir(dir, 0o755)
	warned := testfile.Write(t, dir, "warned.jsonl", `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n"+`{"type":"FUTURE_EVENT"}`+"\n"+`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`+"\n")
	broken := testfile.Write(t, dir, "broken.jsonl", `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`+"\n"+`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`+"\n\n"+`{"type":"STATE_SNAPSHOT","snapshot":{}}`+"\n")

	if err := run(t.Context(), []string{"check", warned}, io.Discard, io.Discard); err != nil {
		t.Fatalf("a warning fails without -strict: %v", err)
	}
	report := filepath.Join(dir, "report.sarif")
	var out bytes.Buffer
	err := run(t.Context(), []string{"check", "-strict", "-sarif", report, warned, broken}, &out, io.Discard)
	if !errors.Is(err, errFailed) || !strings.Contains(out.String(), "FAIL warned: unknown-event at event 2: dropped an event of unknown type FUTURE_EVENT") {
		t.Fatalf("%v\n%s", err, out.String())
	}
	raw, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine int }
					}
				}
				Properties struct{ Event int }
			}
		}
	}
	if err := sariftest.Validate(raw); err != nil {
		t.Errorf("not SARIF 2.1.0: %v\n%s", err, raw)
	}
	if err := json.Unmarshal(raw, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("%v: %s", err, raw)
	}
	got := map[string]string{}
	for _, r := range log.Runs[0].Results {
		loc := r.Locations[0].PhysicalLocation
		got[r.RuleID] = fmt.Sprintf("%s:%d event %d", loc.ArtifactLocation.URI, loc.Region.StartLine, r.Properties.Event)
	}
	uri := sarif.FileURI(dir)
	want := map[string]string{"unknown-event": uri + "/warned.jsonl:2 event 2", "after-finish": uri + "/broken.jsonl:4 event 3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("results %v, want %v", got, want)
	}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if !strings.HasPrefix(r.HelpURI, "https://docs.ag-ui.com/spec/") {
			t.Errorf("rule %s without its page: %q", r.ID, r.HelpURI)
		}
	}
}

// -sarif writes a SARIF 2.1.0 log whether the runs pass or fail: a
// passing script's has no results, a live run's names its URL.
func TestCheckWritesValidSARIF(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"../../../kit/check/testdata/scripts/valid.jsonl"},
		{"../../../kit/check/testdata/scripts/after-finish.json", "../../../kit/check/testdata/captures/cut.sse"},
		{"-url", servertest.Ours(t), "-scenario", "events-after-finish"},
	} {
		report := filepath.Join(dir, "report.sarif")
		err := run(t.Context(), append([]string{"check", "-sarif", report}, args...), io.Discard, io.Discard)
		if passes := len(args) == 1; passes != (err == nil) {
			t.Errorf("%v: %v", args, err)
		}
		raw, _ := os.ReadFile(report)
		if err := sariftest.Validate(raw); err != nil {
			t.Errorf("%v: not SARIF 2.1.0: %v\n%s", args, err, raw)
		}
		if results := bytes.Count(raw, []byte(`"ruleId"`)); (len(args) == 1) != (results == 0) {
			t.Errorf("%v: %d results\n%s", args, results, raw)
		}
	}
}
