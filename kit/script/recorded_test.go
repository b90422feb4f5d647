package script

import (
	"strings"
	"testing"
	"time"
)

// recording is a recorded run that ends interrupted, its interrupt
// expiring a minute after the request was sent, and a resume that
// resolves it a second in.
const recording = `{
  "name": "rec",
  "recordedAt": "2026-01-01T00:00:00Z",
  "stream": [
    {"afterMs": 400, "event": {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-1"}},
    {"afterMs": 600, "event": {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-1", "outcome": {"type": "interrupt", "interrupts": [
      {"id": "interrupt-1", "reason": "confirmation", "expiresAt": "2026-01-01T00:01:00.250Z", "metadata": {"expiresAt": "2026-01-01T00:01:00Z"}},
      {"id": "interrupt-2", "reason": "input", "expiresAt": "2026-01-01T02:00:00+02:00"},
      {"id": "interrupt-3", "reason": "input", "expiresAt": "whenever"}]}}}
  ],
  "continuations": [{"name": "yes", "when": [{"interruptId": "interrupt-1", "payload": true}], "stream": [
    {"afterMs": 0, "event": {"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-2"}},
    {"afterMs": 0, "event": {"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-2", "outcome": {"type": "interrupt", "interrupts": [{"id": "again", "reason": "input", "expiresAt": "2026-01-01T00:02:00Z"}]}}}
  ]}]
}`

func TestARecordingSaysWhenItWasMade(t *testing.T) {
	s, err := Parse([]byte(recording), "rec")
	if err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC); !s.RecordedAt.Equal(want) {
		t.Fatalf("recordedAt %v", s.RecordedAt)
	}
	if got := s.ResumeClock(time.Now()); !got.Equal(s.RecordedAt.Add(time.Second)) {
		t.Errorf("resume clock %v, want the moment the recorded stream ended", got)
	}
	data, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(data, "rec")
	if err != nil || !back.RecordedAt.Equal(s.RecordedAt) || !strings.Contains(string(data), `"recordedAt": "2026-01-01T00:00:00Z"`) {
		t.Errorf("%v %v\n%s", err, back.RecordedAt, data)
	}
	for _, bad := range []string{`"yesterday"`, `1767225600`, `"2026-01-01"`} {
		doc := strings.Replace(recording, `"2026-01-01T00:00:00Z"`, bad, 1)
		_, err := Parse([]byte(doc), "rec")
		if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "recordedAt must be") {
			t.Errorf("recordedAt %s: %v", bad, err)
		}
	}
}

// A script written by hand means its times as written.
func TestAScriptWithoutRecordedAtKeepsItsTimes(t *testing.T) {
	s, err := Parse([]byte(strings.Replace(recording, `"recordedAt": "2026-01-01T00:00:00Z",`, "", 1)), "rec")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if s.Expires() || !s.ResumeClock(now).Equal(now) {
		t.Errorf("expires %v, clock %v", s.Expires(), s.ResumeClock(now))
	}
	frames := s.ForRequest("t", "r")
	if got := s.ServedAt(frames, now.Add(time.Hour)); string(got[1].Event) != string(frames[1].Event) {
		t.Errorf("%s", got[1].Event)
	}
}

// Played later, a recording's interrupts expire as long after the played
// stream as they did after the recorded one; nothing else changes.
func TestARecordingIsServedWithItsExpiriesMovedOn(t *testing.T) {
	s, err := Parse([]byte(recording), "rec")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Expires() {
		t.Fatal("a recording with expiresAt does not expire")
	}
	now := s.RecordedAt.Add(400*24*time.Hour + 1500*time.Millisecond) // a year and more later, seconds cut
	sent := s.ForRequest("t", "r")
	served := s.ServedAt(sent, now)
	want := strings.NewReplacer(
		`"expiresAt":"2026-01-01T00:01:00.250Z"`, `"expiresAt":"2027-02-05T00:01:01.25Z"`,
		`"expiresAt":"2026-01-01T02:00:00+02:00"`, `"expiresAt":"2027-02-05T02:00:01+02:00"`,
	).Replace(string(sent[1].Event))
	if string(served[1].Event) != want {
		t.Errorf("served\n%s\nwant\n%s", served[1].Event, want)
	}
	if string(served[0].Event) != string(sent[0].Event) || string(sent[1].Event) == want {
		t.Errorf("the played frames changed, or the script's own: %s", sent[1].Event)
	}
	c := s.Continue(s.Continuations[0], "t", "r2")
	if got := s.ServedAt(c, now); !strings.Contains(string(got[1].Event), `"expiresAt":"2027-02-05T00:02:01Z"`) {
		t.Errorf("continuation: %s", got[1].Event)
	}
}
