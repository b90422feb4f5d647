package check

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"slices"
	"testing"

	"github.com/agent-analysis/agent-analysis/agui/proto"
	"github.com/agent-analysis/agent-analysis/fixtures"
	"github.com/agent-analysis/agent-analysis/internal/testfile"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/script"
	"github.com/agent-analysis/agent-analysis/server/servertest"
)

// A capture holds the stream, not the request it answered, so a check of
// the file alone accepts any thread and run and starts from no state.
// These scripts break, or warn by, a rule only the request can show; each
// is said with what the live run fails or warns by.
var needsTheRequest = map[string]string{
	"other-thread":         "thread-of-run: the stream's run is on another thread than the one asked for",
	"two-runs":             "requested-run-last: a run follows the one asked for",
	"delta-on-input-state": "no warning: its deltas patch the state the input carries",
}

// What `curl -N` saves of every built-in script's stream, checked as a
// file (check run.sse), gets the verdict check -url gives the same script:
// it passes or fails alike, by the same rules, and warns by the same
// rules. A script whose verdict needs the request gets it when the capture
// is judged with the request it answered.
func TestACaptureOfEveryScriptGetsTheLiveVerdict(t *testing.T) {
	api := servertest.Ours(t)
	dir := t.TempDir()
	for _, f := range fixtures.All() {
		t.Run(f.Name, func(t *testing.T) {
			in, _, err := agent.NewInput(nil, agent.Inputs{State: []byte(`{"services":[]}`), Scenario: f.Name})
			if err != nil {
				t.Fatal(err)
			}
			body, _, err := in.Request("")
			if err != nil {
				t.Fatal(err)
			}
			raw := curl(t, api, body)
			path := testfile.Write(t, dir, f.Name+".sse", string(raw))
			results := File(path, false)
			if len(results) != 1 {
				t.Fatalf("%d results for one capture", len(results))
			}
			file := results[0]
			live := Live(f.Name, agent.Run(t.Context(), agent.Request{URL: api, Input: in}))

			why, needs := needsTheRequest[f.Name]
			switch agree := same(file, live); {
			case !agree && !needs:
				t.Errorf("the capture: %s; the live run: %s", verdictOf(file), verdictOf(live))
			case agree && needs:
				t.Errorf("the capture alone gets the live verdict, %s: drop it from needsTheRequest (%s)", verdictOf(live), why)
			}
			// The same events, judged against the request they answered.
			c := agent.ReadCapture(raw)
			withRequest := Script(script.Script{Name: f.Name, Input: body, Frames: c.Frames}, false)
			if !same(withRequest, live) {
				t.Errorf("the capture with its request: %s; the live run: %s", verdictOf(withRequest), verdictOf(live))
			}
		})
	}
}

// curl posts body as curl -N does, and keeps every byte of the answer.
func curl(t *testing.T, url string, body []byte) []byte {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %v: %s", resp.StatusCode, err, raw)
	}
	return raw
}

// same reports whether two results pass or fail alike, by the same rules,
// and warn by the same rules.
func same(a, b Result) bool {
	return a.OK == b.OK && slices.Equal(ruleIDs(a), ruleIDs(b)) && slices.Equal(warned(a), warned(b))
}

func verdictOf(r Result) string {
	return fmt.Sprintf("ok %v, fails by %q, warns by %q", r.OK, ruleIDs(r), warned(r))
}

// What curl -H 'Accept: application/vnd.ag-ui.event+proto' saves of a
// script's stream, the binary transport, gets the verdict its SSE capture
// gets, told apart by its content whatever the file is called.
func TestABinaryCaptureGetsTheSSECapturesVerdict(t *testing.T) {
	api := servertest.Ours(t)
	dir := t.TempDir()
	judged := 0
	for _, f := range fixtures.All() {
		in, _, _ := agent.NewInput(nil, agent.Inputs{State: []byte(`{"services":[]}`), Scenario: f.Name})
		body, _, _ := in.Request("")
		req, _ := http.NewRequest(http.MethodPost, api, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/vnd.ag-ui.event+proto")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusNotAcceptable {
			continue // the binary transport cannot carry it
		}
		judged++
		bin := File(testfile.Write(t, dir, f.Name+".json", string(raw)), false)[0] // a misleading name
		text := File(testfile.Write(t, dir, f.Name+".sse", string(curl(t, api, body))), false)[0]
		if !same(bin, text) {
			t.Errorf("%s: the binary capture: %s; the SSE capture: %s", f.Name, verdictOf(bin), verdictOf(text))
		}
	}
	if judged < 30 {
		t.Errorf("only %d scripts in binary", judged)
	}
}

// A binary frame that does not decode is judged where the engine would
// reach it, as an SSE event that is not JSON is: after a rule broken
// earlier it is never judged, and before one it is the verdict.
func TestAnUndecodableFrameGetsTheSSEVerdict(t *testing.T) {
	const (
		started  = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
		content  = `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x"}`
		finished = `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`
		notEvent = "not an event"
	)
	for _, events := range [][]string{
		{started, content, notEvent, finished}, // streaming-discipline at 2, no more
		{started, notEvent, finished},          // not-an-event at 2
	} {
		var sse string
		var bin []byte
		for _, e := range events {
			sse += "data: " + e + "\n\n"
			if e == notEvent {
				bin = append(bin, 0, 0, 0, 0) // an empty frame names no event
				continue
			}
			var err error
			if bin, err = proto.AppendFrame(bin, []byte(e)); err != nil {
				t.Fatal(err)
			}
		}
		text, binary := Data("run.sse", []byte(sse), false)[0], Data("run.bin", bin, false)[0]
		if !same(binary, text) || binary.Failures[0].Event != text.Failures[0].Event {
			t.Errorf("%d events: the binary capture %s %+v; the SSE capture %s %+v", len(events), verdictOf(binary), binary.Failures, verdictOf(text), text.Failures)
		}
	}
}
