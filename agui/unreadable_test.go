package agui

import "testing"

// An event its transport's reader could not read breaks not-an-event at
// its place, as a data payload that is not JSON does, and rejects the
// stream from there.
func TestAnUnreadableEventRejectsTheStream(t *testing.T) {
	c, _ := replay(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)
	j := c.Unreadable("a binary frame that does not decode: zero bytes")
	if j.Index != 1 || j.Violation == nil || j.Violation.Rule != NotAnEvent || j.Violation.Reason != "the event is a binary frame that does not decode: zero bytes" || j.Run == nil {
		t.Fatalf("%+v", j)
	}
	if again := c.Feed([]byte(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`)); again.Violation != j.Violation || again.Index != 2 {
		t.Errorf("after it: %+v", again)
	}
	if why := c.End(); why != "" {
		t.Errorf("a rejected stream is not truncated: %q", why)
	}
}
