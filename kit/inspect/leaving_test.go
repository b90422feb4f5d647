package inspect_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/inspect"
	"github.com/agent-analysis/agent-analysis/kit/proxy"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// A run whose script would be more than a script may be is refused as a
// download, as the kit would refuse it read, and said so: its capture is
// the way out. (Deep JSON grows as a script's indentation writes it.)
func TestAScriptPastTheBoundIsRefused(t *testing.T) {
	s := inspect.NewStore(0)
	w := s.Begin(proxy.Begin{Method: "POST", Path: "/", ThreadID: "t", RunID: "r", Started: time.Now()})
	deep := strings.Repeat("[", 3000) + strings.Repeat("]", 3000)
	w.Frame(0, script.Frame{Event: []byte(deep)}, agui.Judgement{})
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/runs/" + s.Runs()[0].ID + "/script")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(string(body), "capture") {
		t.Errorf("%d, %d bytes: %.200s", resp.StatusCode, len(body), body)
	}
}

// A file named as the proxy's runs' source is still a file: the command
// judges the file, not a URL.
func TestAFileNamedLiveIsAFile(t *testing.T) {
	s := inspect.NewStore(0)
	s.LoadData("live", []byte("data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n"))
	if command, _ := s.Command(s.Runs()[0].ID); command != "agent-analysis check './live'" {
		t.Errorf("the command: %s", command)
	}
}
