package check

import (
	"encoding/json"
	"time"

	"github.com/agent-analysis/agent-analysis/kit/rules"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/agui/jsonpatch"
	"github.com/agent-analysis/agent-analysis/kit/agent"
	"github.com/agent-analysis/agent-analysis/kit/script"
)

// A script whose stream ends interrupted may say how the run that resumes
// it goes: "continuations", each the stream an agent plays for a resume
// whose answers are its "when" (fixtures/approval.json). Each is replayed
// as the continuing run: through a fresh consumer, its input the main
// stream's input with the state and messages the stream ended with and a
// resume list of the "when" entries, built and checked by the engine
// (agui.Pending.Resume).

// answersOf is a continuation's "when" as the resume list that plays it:
// each entry's status, or, where it leaves the status open, resolved
// when it gives a payload and cancelled when not; an interrupt of the
// run that "when" does not name is cancelled, so that the list covers
// every one, as the server's matching allows.
func answersOf(c script.Continuation, raised []agui.Interrupt) []agui.Answer {
	out := make([]agui.Answer, len(c.When))
	named := map[string]bool{}
	for n, m := range c.When {
		named[m.InterruptID] = true
		a := agui.Answer{InterruptID: m.InterruptID, Status: agui.ResumeStatus(m.Status), Payload: m.Payload}
		if a.Status == "" {
			a.Status = agui.Abandoned
			if m.Payload != nil {
				a.Status = agui.Resolved
			}
		}
		out[n] = a
	}
	for _, i := range raised {
		if !named[i.ID] {
			out = append(out, agui.Answer{InterruptID: i.ID, Status: agui.Abandoned})
		}
	}
	return out
}

// Continuations judges each continuation of a script as a run of its own,
// named "SCRIPT/CONTINUATION": the resume must be one the engine sends,
// and the stream must be accepted, every run ended, or, with useExpect,
// agree with the continuation's "expect" when it has one.
func Continuations(s script.Script, useExpect bool) []Result {
	if len(s.Continuations) == 0 {
		return nil
	}
	main := Run(s)
	var out []Result
	for _, c := range s.Continuations {
		res := Result{Name: s.Name + "/" + c.Name, Continues: s.Name}
		if r, err := ContinuationReplay(s, main, c); err != nil {
			res.Failures = []rules.Failure{*err}
		} else {
			res.Failures, res.Notes, res.Warnings = judge(r, expectOf(c), useExpect)
			res.ended(r)
		}
		res.OK = len(res.Failures) == 0
		out = append(out, res)
	}
	return out
}

// expectOf is a continuation's "expect"; nil for none, null included, as
// for a script's own: null must not read as an expect that asserts
// nothing.
func expectOf(c script.Continuation) json.RawMessage {
	expect := script.Compact(c.Extra["expect"])
	if string(expect) == "null" {
		return nil
	}
	return expect
}

// ContinuationReplay replays c as the run continuing main, the replay of
// s (Run(s)), as Continuations judges it.
func ContinuationReplay(s script.Script, main Replay, c script.Continuation) (Replay, *rules.Failure) {
	if main.Pending == nil {
		return Replay{}, &rules.Failure{Rule: rules.Resume, Text: "the stream does not end interrupted (" + ending(main) + "): there is nothing to resume"}
	}
	base, err := agent.NextInput(jsonpatch.Encode(main.Request), main.State, main.Messages)
	if err != nil {
		return Replay{}, &rules.Failure{Rule: rules.Resume, Text: "the resume cannot be built: " + err.Error()}
	}
	stream := script.Script{Name: c.Name, Frames: c.Frames}
	_, run := firstRun(stream)
	in, err := main.Pending.Resume(base, run, answersOf(c, main.Pending.Interrupts), s.ResumeClock(time.Now()))
	if err != nil {
		f := refused(err)
		return Replay{}, &f
	}
	return replay(stream, in, in, nil, agui.Options{Peer: s.Peer, Speak: speaks(s), Continues: *main.Pending}), nil
}

// judge is a replay's failures, notes and warnings: against expect when
// asked and there is one, else the stream must be accepted.
func judge(r Replay, expect json.RawMessage, useExpect bool) ([]rules.Failure, []string, []rules.Failure) {
	if useExpect && expect != nil {
		e, err := readExpect(expect)
		if err != nil {
			return []rules.Failure{{Rule: "expect", Text: err.Error()}}, nil, nil
		}
		failures, notes := compare(r, e)
		return failures, notes, nil
	}
	var res Result
	res.warned(r.Warnings)
	if f := verdict(r); f != nil {
		return []rules.Failure{*f}, res.Notes, res.Warnings
	}
	return nil, res.Notes, res.Warnings
}
