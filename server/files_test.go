package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/ui"
	"github.com/agent-analysis/agent-analysis/server"
	"github.com/agent-analysis/agent-analysis/server/library"
)

// A script from a file: the requested run (named by its input) is a
// replay of an older run's, then its own; a comment between them.
const fileScript = `{
  "name": "from-a-file",
  "description": "Recorded elsewhere.",
  "input": {"threadId": "thr-rec", "runId": "run-rec"},
  "stream": [
    {"type": "RUN_STARTED", "threadId": "thr-rec", "runId": "run-old"},
    {"type": "RUN_FINISHED", "threadId": "thr-rec", "runId": "run-old"},
    {"afterMs": 5, "comment": "keep-alive"},
    {"type": "RUN_STARTED", "threadId": "thr-rec", "runId": "run-rec", "protocolVersion": "1.0"},
    {"type": "CUSTOM", "name": "ids", "value": {"runId": "run-rec"}},
    {"type": "RUN_FINISHED", "threadId": "thr-rec", "runId": "run-rec"}
  ]
}`

func fileServer(t *testing.T, files map[string]string) http.Handler {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lib, err := library.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return server.New(server.Config{Scripts: lib, NoDelay: true, WebDir: webDir(t, "\x00asm", "", 0)})
}

// A file's events go out as written, except the requested run's ids,
// which are the request's; another run keeps its own, and a comment is a
// comment line.
func TestAFileScriptPlaysVerbatimUnderTheRequestsIDs(t *testing.T) {
	srv := httptest.NewServer(fileServer(t, map[string]string{"mine.json": fileScript}))
	defer srv.Close()
	resp, err := http.DefaultClient.Do(newRunRequest(t.Context(), srv.URL+"/api/agent-analysis", runBody("t1", "r1", "from-a-file")))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	want := `data: {"type":"RUN_STARTED","threadId":"t1","runId":"run-old"}

data: {"type":"RUN_FINISHED","threadId":"t1","runId":"run-old"}

: keep-alive

data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1","protocolVersion":"1.0"}

data: {"type":"CUSTOM","name":"ids","value":{"runId":"run-rec"}}

data: {"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}

`
	if resp.StatusCode != 200 || string(raw) != want {
		t.Errorf("%d\n%s", resp.StatusCode, raw)
	}
}

// The unknown-scenario answer lists the files' scripts with the built-ins.
func TestAnUnknownScenarioListsFileScriptsToo(t *testing.T) {
	h := fileServer(t, map[string]string{"mine.json": fileScript})
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/api/agent-analysis", strings.NewReader(runBody("t", "r", "fast")))
	req.Header.Set("Content-Type", "application/json")
	h.ServeHTTP(rec, req)
	var p server.Problem
	json.Unmarshal(rec.Body.Bytes(), &p)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(p.Detail, "first-not-run-started, from-a-file, ") {
		t.Errorf("%d %s", rec.Code, p.Detail)
	}
}

// The page's Scenario select offers a file's script in the file group,
// with its description.
func TestThePageOffersFileScripts(t *testing.T) {
	h := fileServer(t, map[string]string{"mine.json": fileScript, "plain.jsonl": `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`})
	env := regexp.MustCompile(`const goappEnv = (\{.*\});`).FindStringSubmatch(get(h, "/app.js").Body.String())
	if env == nil {
		t.Fatal("app.js has no environment")
	}
	var vars map[string]string
	json.Unmarshal([]byte(env[1]), &vars)
	offered, err := catalogue.Decode(vars[ui.ScenariosEnv])
	if err != nil {
		t.Fatal(err)
	}
	files := offered.In(catalogue.File)
	if len(files) != 2 || files[0] != (catalogue.Entry{Name: "from-a-file", Group: catalogue.File, Description: "Recorded elsewhere."}) ||
		files[1].Name != "plain" || !strings.HasPrefix(files[1].Description, "Loaded from ") {
		t.Errorf("files offered: %+v", files)
	}
}
