package check

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func live(t *testing.T, url, scenario string, timeout time.Duration) Result {
	t.Helper()
	in, _, err := agent.NewInput(nil, agent.Inputs{State: []byte(`{"services":[]}`), Scenario: scenario})
	if err != nil {
		t.Fatal(err)
	}
	return Live(scenario, agent.Run(t.Context(), agent.Request{URL: url, Input: in, Timeout: timeout}))
}

func ruleIDs(r Result) []string {
	var out []string
	for _, f := range r.Failures {
		out = append(out, f.Rule)
	}
	return out
}

// Against this project's server, a fault the engine must reject fails
// with exactly its rule; every other script passes; and a live run warns
// by the rules a replay of the script's file warns by.
func TestLiveRunsOfEveryScriptReportExactlyItsRule(t *testing.T) {
	api := servertest.Ours(t)
	for _, f := range fixtures.All() {
		t.Run(f.Name, func(t *testing.T) {
			r := live(t, api, f.Name, 0)
			if r.Transport == nil || r.Transport.Status != 200 || r.Transport.Events == 0 {
				t.Fatalf("transport %+v", r.Transport)
			}
			if f.Group == fixtures.Fatal {
				if got := ruleIDs(r); r.OK || len(got) != 1 || got[0] != f.Rule.ID {
					t.Errorf("failures %+v, want exactly %s", r.Failures, f.Rule.ID)
				}
			} else if !r.OK {
				t.Errorf("failures %+v", r.Failures)
			}
			if live, replay := warned(r), warned(Script(f.Script, false)); !slices.Equal(live, replay) {
				t.Errorf("the live run warns %q, a replay of its file %q", live, replay)
			}
		})
	}
	// The demo's typed state refuses a duplicate id; a live agent's state
	// is checked as JSON, so the warn faults that only a typed state
	// catches pass without a warning (their file replays agree, above).
	r := live(t, api, "delta-before-snapshot", 0)
	if !slices.Equal(warned(r), []string{"patch-not-applied"}) {
		t.Errorf("delta-before-snapshot warns %q", warned(r))
	}
}

// warned are the rules a result's warnings name.
func warned(r Result) []string {
	var out []string
	for _, n := range r.Notes {
		if rule, ok := strings.CutPrefix(n, "warning ("); ok {
			out = append(out, rule[:strings.Index(rule, ")")])
		}
	}
	return out
}

// The report names each failure by its rule, in JUnit too: it is XML that
// reads back, a testcase a run, a failure each failing one.
func TestJUnitNamesEachFailure(t *testing.T) {
	api := servertest.Ours(t)
	html := servertest.Upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html>]]> & \x00</html>")
	})
	silent := servertest.Upstream(t, servertest.NeverAnswers)

	results := []Result{
		live(t, api, "normal", 0),
		live(t, api, "two-runs", 0),
		live(t, api, "no-terminal-event", 0),
		live(t, html, "normal", 0),
		live(t, silent, "normal", 50*time.Millisecond),
		File("testdata/scripts/wrong-expectations.json", true)[0],
	}
	var b bytes.Buffer
	if err := WriteJUnit(&b, "agent-analysis check", results, nil); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if !strings.HasPrefix(b.String(), `<?xml version="1.0" encoding="UTF-8"?>`) || doc.Tests != 6 || doc.Failures != 5 || len(doc.Suites) != 1 {
		t.Fatalf("%+v", doc)
	}
	want := []struct {
		rule  string   // the failure's type
		lines []string // the rules its text lists
	}{
		{},
		{"requested-run-last", []string{"requested-run-last"}},
		{"truncated", []string{"truncated"}},
		{"content-type", []string{"content-type"}},
		{"timeout", []string{"timeout"}},
		{"expect.outcome", []string{"expect.outcome", "expect.runError", "expect.messages", "expect.messageCount", "expect.eventTypesAbsent"}},
	}
	for i, c := range doc.Suites[0].Cases {
		w := want[i]
		if c.Name != results[i].Name {
			t.Errorf("testcase %d is %q", i, c.Name)
		}
		if w.rule == "" {
			if c.Failure != nil {
				t.Errorf("%s failed: %+v", c.Name, c.Failure)
			}
			continue
		}
		if c.Failure == nil || c.Failure.Type != w.rule || c.Failure.Message == "" {
			t.Errorf("%s: %+v, want a %s failure", c.Name, c.Failure, w.rule)
			continue
		}
		lines := strings.Split(c.Failure.Text, "\n")
		for j, rule := range w.lines {
			named := j < len(lines) && (strings.HasPrefix(lines[j], rule+": ") || strings.HasPrefix(lines[j], rule+" at event "))
			if !named || strings.Contains(lines[j][len(rule):], " "+rule+":") { // the rule said once
				t.Errorf("%s: failure text %q does not name %s on line %d", c.Name, c.Failure.Text, rule, j)
			}
		}
	}
	cases := doc.Suites[0].Cases
	if cases[0].Classname != api || cases[5].Classname != "testdata/scripts" || cases[5].File != "testdata/scripts/wrong-expectations.json" {
		t.Errorf("classnames %q %q", cases[0].Classname, cases[5].Classname)
	}
}

func TestPrintShowsALiveRunsMeasurements(t *testing.T) {
	var b bytes.Buffer
	Print(&b, []Result{live(t, servertest.Ours(t), "keep-alive-comments", 0)}, nil, false)
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "ok   keep-alive-comments" || !strings.HasPrefix(lines[1], "     200 text/event-stream · 4 events · 4 keep-alive comments · ") {
		t.Errorf("%s", b.String())
	}
}
