package server

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// A request whose input has a "resume" list continues a run its script
// interrupted (basic/patterns/interrupt-resume). The server kept nothing
// of that run: the script says what it raised, and the interrupt ids say
// on which thread (script.BindInterrupt: served as "<id>@<threadId>").
// So the resume is judged on the request alone, as a consumer judges the
// one it sends (agui.Pending.Check), and the first of the script's
// continuations its answers match is played; every refusal is a 422
// before any stream byte.

// continuationFor is what a resume of s's interrupted run plays, for the
// request's input in, at now.
func continuationFor(in agui.Input, s script.Script, now time.Time) (*script.Continuation, *Problem) {
	if len(s.Continuations) == 0 {
		return nil, refused("resume", fmt.Sprintf("Scenario %q does not continue an interrupted run: send no resume list.", s.Name))
	}
	raised := s.Interrupts()
	ids := make([]string, len(raised))
	for n, i := range raised {
		ids[n] = i.ID
	}
	answers := in.Answers()
	// An id bound to another thread names an interrupt this thread never
	// saw: refused before the coverage check, which would only call it
	// unknown.
	for n, a := range answers {
		if _, other, ok := script.UnbindInterrupt(a.InterruptID, in.ThreadID, ids); !ok && other != "" {
			return nil, refused(fmt.Sprintf("resume/%d/interruptId", n), fmt.Sprintf(
				"Interrupt %q was raised on thread %q, not this one (%q): a resume answers the interrupts of its own thread.",
				a.InterruptID, other, in.ThreadID))
		}
	}
	// The interrupted run's id is the client's, which the server never
	// kept: the reasons say "the interrupted run".
	pending := agui.Pending{ThreadID: in.ThreadID, Interrupts: make([]agui.Interrupt, len(raised))}
	for n, i := range raised {
		i.ID = script.BindInterrupt(i.ID, in.ThreadID)
		pending.Interrupts[n] = i
	}
	var re *agui.ResumeError
	// A recording's resume is judged at the moment its stream ended: the
	// server cannot know when it played the run to this client
	// (script.Script.ResumeClock).
	if err := pending.Check(in, s.ResumeClock(now)); errors.As(err, &re) { // Check's only error
		return nil, refused(re.Field, re.Reason)
	}
	unbound := make([]agui.Answer, len(answers))
	for n, a := range answers {
		a.InterruptID, _, _ = script.UnbindInterrupt(a.InterruptID, in.ThreadID, ids)
		unbound[n] = a
	}
	names := make([]string, len(s.Continuations))
	for n, c := range s.Continuations {
		if c.Matches(unbound) {
			return &s.Continuations[n], nil
		}
		names[n] = fmt.Sprintf("%q", c.Name)
	}
	return nil, refused("resume", fmt.Sprintf("No continuation of scenario %q takes these answers; it has %s.", s.Name, strings.Join(names, ", ")))
}

func refused(field, detail string) *Problem {
	p := problem(http.StatusUnprocessableEntity, "resume-refused", "Resume refused", detail)
	p.Field = field
	return p
}
