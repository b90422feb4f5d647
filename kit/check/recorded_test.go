package check

import (
	"strings"
	"testing"

	"github.com/agent-analysis/agent-analysis/kit/rules"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// recording ends interrupted, its interrupt expiring 30 s after the
// request (EXPIRY), and resolves it a second in, when its stream ended.
const recording = `{
  "name": "rec",
  "recordedAt": "2020-01-01T00:00:00Z",
  "input": {"threadId": "thread-1", "runId": "run-1", "messages": [], "state": {}},
  "stream": [
    {"afterMs": 400, "event": {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-1"}},
    {"afterMs": 600, "event": {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-1", "outcome": {"type": "interrupt", "interrupts": [
      {"id": "interrupt-1", "reason": "confirmation", "expiresAt": "EXPIRY"}]}}}
  ],
  "continuations": [{"name": "yes", "when": [{"interruptId": "interrupt-1", "payload": {"ok": true}}], "stream": [
    {"afterMs": 0, "event": {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-2"}},
    {"afterMs": 0, "event": {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-2"}}
  ]}]
}`

// A recording is judged on its own clock: its resume was sent in time
// when it was recorded, years ago, and stays so; one sent after its
// interrupt expired stays refused. A script written by hand, without
// recordedAt, means its times as written.
func TestARecordedResumeIsJudgedWhenItWasSent(t *testing.T) {
	for _, tt := range []struct {
		name, expiry string
		recorded, ok bool
	}{
		{"in time", "2020-01-01T00:00:30Z", true, true},
		{"expired before the stream ended", "2020-01-01T00:00:00.999Z", true, false},
		{"in time, by hand", "2020-01-01T00:00:30Z", false, false},
	} {
		doc := strings.Replace(recording, "EXPIRY", tt.expiry, 1)
		if !tt.recorded {
			doc = strings.Replace(doc, `"recordedAt": "2020-01-01T00:00:00Z",`, "", 1)
		}
		s, err := script.Parse([]byte(doc), "rec")
		if err != nil {
			t.Fatal(err)
		}
		res := Continuations(s, true)
		if len(res) != 1 || res[0].OK != tt.ok {
			t.Fatalf("%s: %+v", tt.name, res)
		}
		if !tt.ok && (res[0].Failures[0].Rule != rules.Resume || !strings.Contains(res[0].Failures[0].Text, "resume/0/status: interrupt \"interrupt-1\" expired at "+tt.expiry)) {
			t.Errorf("%s: %+v", tt.name, res[0].Failures)
		}
	}
}
