package sarif_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/sarif"
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
