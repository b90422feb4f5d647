package script

import (
	"encoding/json"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui"
)

// Interrupts bound to their thread. A server that plays scripts keeps
// nothing between the run it interrupted and the request that resumes
// it, yet must refuse a resume naming an interrupt raised on another
// thread: the interrupt ids are what a client holds and sends back, so
// the thread travels inside them. When a script has continuations, the
// interrupts its requested run raises are served as "<id>@<threadId>"
// (ForRequest), the request's thread; a resume's interruptId is unbound
// again (UnbindInterrupt), and one bound to another thread is refused.
// A script writes its ids unbound, and so do its continuations' "when".

// BindInterrupt is an interrupt's id as a request of this thread
// receives it.
func BindInterrupt(id, threadID string) string { return id + "@" + threadID }

// UnbindInterrupt reads a resume entry's interruptId against the ids a
// script raises: the script's id, when it is one of them bound to
// threadID (ok); otherwise, when it is one of them bound to another
// thread, that thread (other), and ok false; an id that is neither gives
// "", "", false.
func UnbindInterrupt(sent, threadID string, raised []string) (id, other string, ok bool) {
	for _, r := range raised {
		if sent == BindInterrupt(r, threadID) {
			return r, "", true
		}
	}
	for _, r := range raised {
		if thread, found := strings.CutPrefix(sent, r+"@"); found {
			return "", thread, false
		}
	}
	return "", "", false
}

// Interrupts are the interrupts the script's requested run raises, as
// written (unbound): those of its RUN_FINISHED's interrupt outcome;
// none when it ends otherwise.
func (s Script) Interrupts() []agui.Interrupt {
	_, fromRun := s.Requested()
	var out []agui.Interrupt
	for _, st := range s.Frames {
		if _, run := st.RunIDs(); st.Type != "RUN_FINISHED" || run != fromRun {
			continue
		}
		var e struct {
			Outcome struct {
				Type       string `json:"type"`
				Interrupts []struct {
					ID             string          `json:"id"`
					Reason         string          `json:"reason"`
					Message        string          `json:"message"`
					ToolCallID     string          `json:"toolCallId"`
					SubagentRunID  string          `json:"subagentRunId"`
					ResponseSchema json.RawMessage `json:"responseSchema"`
					ExpiresAt      string          `json:"expiresAt"`
					Metadata       json.RawMessage `json:"metadata"`
				} `json:"interrupts"`
			} `json:"outcome"`
		}
		out = nil
		if json.Unmarshal(st.Event, &e) != nil || e.Outcome.Type != "interrupt" {
			continue
		}
		for _, i := range e.Outcome.Interrupts {
			out = append(out, agui.Interrupt{
				ID: i.ID, Reason: i.Reason, Message: i.Message, ToolCallID: i.ToolCallID, SubagentRunID: i.SubagentRunID,
				ResponseSchema: raw(i.ResponseSchema), ExpiresAt: i.ExpiresAt, Metadata: raw(i.Metadata),
			})
		}
	}
	return out
}

func raw(m json.RawMessage) []byte {
	if m == nil {
		return nil
	}
	return Compact(m)
}
