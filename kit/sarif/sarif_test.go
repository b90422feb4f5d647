package sarif_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/sarif"
	"github.com/agent-analysis/agent-analysis/kit/sarif/sariftest"
)

func TestWrite(t *testing.T) {
	var b bytes.Buffer
	err := sarif.Write(&b, sarif.Tool{Name: "agent-analysis proxy"}, []sarif.Result{
		{RuleID: "after-finish", HelpURI: "https://docs.ag-ui.com/spec/1.0/events/lifecycle", Message: "m1", URI: "http://agent/agui", Event: 5},
		{RuleID: "truncated", Message: "m2", URI: "runs/a.json", Line: 12},
		{RuleID: "after-finish", HelpURI: "https://docs.ag-ui.com/spec/1.0/events/lifecycle", Message: "m3", URI: "http://agent/agui", Event: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID, HelpURI string }
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           *struct{ StartLine int }
					}
					LogicalLocations []struct{ Name string }
				}
				Properties struct{ Event int }
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	rules, results := run.Tool.Driver.Rules, run.Results
	if log.Version != "2.1.0" || len(rules) != 2 || rules[0].ID != "after-finish" || rules[0].HelpURI == "" || rules[1].ID != "truncated" ||
		len(results) != 3 || results[2].RuleIndex != 0 || results[1].RuleIndex != 1 || results[0].Level != "error" ||
		results[0].Properties.Event != 5 || results[0].Locations[0].LogicalLocations[0].Name != "event 5" ||
		results[1].Locations[0].PhysicalLocation.Region.StartLine != 12 || results[1].Locations[0].PhysicalLocation.ArtifactLocation.URI != "runs/a.json" {
		t.Errorf("%s", b.String())
	}
	b.Reset()
	if sarif.Write(&b, sarif.Tool{Name: "x"}, nil) != nil || !bytes.Contains(b.Bytes(), []byte(`"results": []`)) {
		t.Errorf("empty: %s", b.String())
	}
}

func TestFileURI(t *testing.T) {
	for path, want := range map[string]string{
		"runs/a.json":     "runs/a.json",
		"runs/a b#1.json": "runs/a%20b%231.json",
		"a:b.json":        "./a:b.json",
		"/tmp/run.sse":    "/tmp/run.sse",
		"//tmp/x.jsonl":   "/tmp/x.jsonl", // not host "tmp"
		"///tmp/x.jsonl":  "/tmp/x.jsonl",
	} {
		if got := sarif.FileURI(filepath.FromSlash(path)); got != want {
			t.Errorf("FileURI(%q) = %q, want %q", path, got, want)
		}
	}
	if runtime.GOOS == "windows" {
		if got := sarif.FileURI(`C:\runs\a b.json`); got != "file:///C:/runs/a%20b.json" {
			t.Errorf("a Windows path: %q", got)
		}
	}
}

// What Write writes is a SARIF 2.1.0 log by the schema; the schema refuses
// a log broken in any of the ways a writer could break it.
func TestWriteWritesValidSARIF(t *testing.T) {
	var b bytes.Buffer
	err := sarif.Write(&b, sarif.Tool{Name: "agent-analysis check", InformationURI: "https://github.com/agent-analysis/agent-analysis"}, []sarif.Result{
		{RuleID: "after-finish", HelpURI: "https://docs.ag-ui.com/spec/1.0/events/lifecycle", Message: "m1", URI: "http://agent/agui?x=1", Event: 5},
		{RuleID: "truncated", Level: "warning", Message: "m2", URI: sarif.FileURI("runs/a b.json"), Line: 12, Event: 3},
		{RuleID: "expect.state", Message: "m3"},
	})
	if err != nil {
		t.Fatal(err)
	}
	valid := b.String()
	if err := sariftest.Validate(b.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, valid)
	}
	b.Reset()
	if err := sarif.Write(&b, sarif.Tool{Name: "x"}, nil); err != nil || sariftest.Validate(b.Bytes()) != nil {
		t.Errorf("a log of no results: %v %v\n%s", err, sariftest.Validate(b.Bytes()), b.String())
	}

	for _, broken := range []struct{ what, old, new string }{
		{"another version", `"version": "2.1.0"`, `"version": "2.0.0"`},
		{"a level SARIF does not have", `"level": "error"`, `"level": "fatal"`},
		{"a result without its message", `"message": {`, `"note": {`},
		{"a line 0", `"startLine": 12`, `"startLine": 0`},
		{"a rule page that is no URI", `"helpUri": "https://docs.ag-ui.com/spec/1.0/events/lifecycle"`, `"helpUri": "lifecycle page"`},
		{"a Windows path for a URI", `"uri": "runs/a%20b.json"`, `"uri": "runs\\a b.json"`},
		{"a member SARIF does not have", `"ruleIndex": 0,`, `"ruleIndex": 0, "severity": "high",`},
		{"no runs", `"runs": [`, `"run": [`},
	} {
		log := strings.Replace(valid, broken.old, broken.new, 1)
		if log == valid {
			t.Fatalf("%s: the log has no %s:\n%s", broken.what, broken.old, valid)
		}
		if err := sariftest.Validate([]byte(log)); err == nil {
			t.Errorf("%s: the schema takes it:\n%s", broken.what, log)
		}
	}
}
