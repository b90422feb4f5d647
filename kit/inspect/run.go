package inspect

import (
	"time"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
	"github.com/agent-analysis/agent-analysis/kit/rules"
)

func questions(list []agui.Interrupt) []runs.Question {
	var out []runs.Question
	for _, i := range list {
		out = append(out, runs.Question{ID: i.ID, Reason: i.Reason, Message: i.Message, ToolCallID: i.ToolCallID, Schema: i.ResponseSchema})
	}
	return out
}

// replies are the answers an input carries; none when it cannot be read.
func replies(input string) []runs.Reply {
	in, _, err := agui.ReadInput([]byte(input))
	if err != nil {
		return nil
	}
	var out []runs.Reply
	for _, a := range in.Answers() {
		out = append(out, runs.Reply{InterruptID: a.InterruptID, Status: string(a.Status), Payload: a.Payload})
	}
	return out
}

// marks are an event's judgement as marks.
func marks(j agui.Judgement) []runs.Mark {
	var out []runs.Mark
	for _, w := range j.Warnings {
		out = append(out, mark(w.Rule, w.Text))
	}
	if v := j.Violation; v != nil && v.Index == j.Index {
		out = append(out, mark(v.Rule, v.Reason))
	}
	return out
}

func mark(r agui.Rule, text string) runs.Mark {
	return runs.Mark{Rule: r.ID(), Fatal: r.Fatal(), Text: text, Meaning: r.Summary(), Page: r.URL()}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// failures are the kit's failures as the page reads them.
func failures(list []rules.Failure) []runs.Failure {
	var out []runs.Failure
	for _, f := range list {
		out = append(out, runs.Failure{Rule: f.Rule, Event: f.Event, Field: f.Field, Text: f.Text, Page: f.Page()})
	}
	return out
}
