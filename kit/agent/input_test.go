package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/internal/testfile"
)

// An input file is read as a script is: bounded, a BOM allowed, a JSON
// error placed on its line. Errors start with the path, not a flag.
func TestReadInputFile(t *testing.T) {
	dir := t.TempDir()
	in, warnings, err := ReadInputFile(testfile.Write(t, dir, "bom.json", "\ufeff{\"forwardedProps\":{\"scenario\":\"x\"},\"extra\":1}"), Inputs{})
	if err != nil || in.ThreadID == "" || in.RunID == "" || len(warnings) != 1 {
		t.Fatalf("%+v %v %v", in, warnings, err)
	}

	bad := testfile.Write(t, dir, "bad.json", "{\n  \"threadId\": \"t\",\n  \"runId\": r\n}")
	if _, _, err := ReadInputFile(bad, Inputs{}); err == nil || !strings.HasPrefix(err.Error(), bad+": line 3, column 12: invalid JSON") {
		t.Errorf("bad JSON: %v", err)
	}
	array := testfile.Write(t, dir, "array.json", "\n[]")
	if _, _, err := ReadInputFile(array, Inputs{}); err == nil || err.Error() != array+": line 2, column 1: a RunAgentInput is a JSON object, not an array" {
		t.Errorf("an array: %v", err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, _, err := ReadInputFile(missing, Inputs{}); !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), missing+": cannot read it: ") {
		t.Errorf("missing: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	if f, err := os.Create(big); err == nil {
		f.Truncate(50 << 20) // sparse
		f.Close()
	}
	if _, _, err := ReadInputFile(big, Inputs{}); err == nil || err.Error() != big+": the file is 50.0 MiB, over the 16 MiB a run input may be" {
		t.Errorf("big: %v", err)
	}
	if _, _, err := ReadInputFile(dir, Inputs{}); err == nil || err.Error() != dir+": not a regular file" {
		t.Errorf("a directory: %v", err)
	}
}

// An input is completed with every member AG-UI's RunAgentInput requires,
// empty, after the members given, in their order and spelling; the
// scenario goes into forwardedProps only when asked for.
func TestNewInputCompletesTheInput(t *testing.T) {
	for _, tt := range []struct {
		name   string
		given  string // nil when ""
		in     Inputs
		want   string // the request, ids replaced by T and R
		refuse string
	}{
		{"nothing", "", Inputs{}, `{"threadId":"T","runId":"R","messages":[],"tools":[],"context":[],"state":{},"forwardedProps":{},"protocolVersion":"1.1"}`, ""},
		{"our server", "", Inputs{Scenario: "slow"}, `{"threadId":"T","runId":"R","messages":[],"tools":[],"context":[],"state":{},"forwardedProps":{"scenario":"slow"},"protocolVersion":"1.1"}`, ""},
		{"some", `{"state":{"n":1},"messages":[{"id":"m1","role":"user","content":"hi"}]}`, Inputs{ThreadID: "t-7"},
			`{"state":{"n":1},"messages":[{"id":"m1","role":"user","content":"hi"}],"threadId":"t-7","runId":"R","tools":[],"context":[],"forwardedProps":{},"protocolVersion":"1.1"}`, ""},
		{"props kept", `{"forwardedProps":{"a":1}}`, Inputs{Scenario: "x"}, `{"forwardedProps":{"a":1,"scenario":"x"},"threadId":"T","runId":"R","messages":[],"tools":[],"context":[],"state":{},"protocolVersion":"1.1"}`, ""},
		{"scenario twice", `{"forwardedProps":{"scenario":"y"}}`, Inputs{Scenario: "x"}, "", `forwardedProps.scenario is "y", and -scenario "x" names another`},
		{"props not an object", `{"forwardedProps":[]}`, Inputs{Scenario: "x"}, "", "forwardedProps is not an object"},
		{"thread twice", `{"threadId":"a"}`, Inputs{ThreadID: "b"}, "", `threadId is "a", and -thread "b" names another`},
		{"case", `{"ThreadId":"a"}`, Inputs{}, `{"threadId":"T","runId":"R","messages":[],"tools":[],"context":[],"state":{},"forwardedProps":{},"protocolVersion":"1.1"}`, ""},
		{"repeated", `{"tools":[],"tools":[]}`, Inputs{}, "", `a RunAgentInput gives "tools" twice`},
		{"wrong kind", `{"tools":{}}`, Inputs{}, "", "tools: must be an array"},
	} {
		var given []byte
		if tt.given != "" {
			given = []byte(tt.given)
		}
		in, _, err := NewInput(given, tt.in)
		if tt.refuse != "" {
			if err == nil || !strings.Contains(err.Error(), tt.refuse) {
				t.Errorf("%s: %v, want %q", tt.name, err, tt.refuse)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		body, _, _ := in.Request("")
		got := strings.NewReplacer(`"`+in.ThreadID+`"`, `"T"`, `"`+in.RunID+`"`, `"R"`).Replace(string(body))
		if tt.in.ThreadID != "" {
			got = strings.Replace(string(body), `"`+in.RunID+`"`, `"R"`, 1)
		}
		if got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}
