package page

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// talkView is the conversation after the cursor's event, tool calls with
// their results, and the interrupt: what the run asked and the answer that
// resumed it, each linking to the other run.
type talkView struct {
	app.Compo
	At     *runs.At
	Cursor int
	Detail *runs.Detail
	Asked  *runs.Detail // the run this one answers
	Answer *runs.Detail // the run that answered this one
	Whole  map[string]bool
	send   func(Msg)
}

func (v *talkView) Render() app.UI {
	body := []app.UI{app.H2().ID("talk-title").Text("Conversation")}
	body = append(body, v.interrupt()...)
	switch {
	case v.At == nil:
		body = append(body, app.P().Class("hint").Text("Reading the conversation…"))
	default:
		said, err := Conversation(v.At.Messages)
		where := "Before the first event: the input's messages."
		if v.At.Index >= 0 {
			where = fmt.Sprintf("After event #%d.", v.At.Index)
		}
		body = append(body, app.P().Class("state-at").Text(where))
		switch {
		case err != nil:
			body = append(body, app.Pre().Class("json").TabIndex(0).Aria("label", "The messages, as JSON").Text(string(v.At.Messages)))
		case len(said) == 0:
			body = append(body, app.P().Class("hint").Text("No messages."))
		default:
			body = append(body, app.Ol().Class("messages").Aria("label", "Messages").Body(
				app.Range(said).Slice(func(i int) app.UI { return v.saidItem(said[i]) }),
			))
		}
	}
	return app.Section().Class("card", "talk").Aria("labelledby", "talk-title").Body(body...)
}

func (v *talkView) saidItem(s Said) app.UI {
	who := s.Role
	if s.Name != "" {
		who += " · " + s.Name
	}
	return app.Li().Class("message", "role-"+safeClass(s.Role)).Body(
		app.P().Class("who").Body(app.Strong().Text(who), app.Span().Class("id").Text(" "+s.ID)),
		app.If(s.Text != "", func() app.UI {
			text, note := clipped("message:"+s.ID, s.Text, v.Whole, v.send)
			return app.Div().Body(note, app.P().Class("text").Text(text))
		}),
		app.Range(s.Calls).Slice(func(i int) app.UI { return v.callItem(s.Calls[i]) }),
	)
}

func (v *talkView) callItem(c Call) app.UI {
	var result app.UI = app.P().Class("hint").Text("No result in the conversation yet.")
	if c.Answered {
		text, note := clipped("result:"+c.ID, c.Result, v.Whole, v.send)
		result = app.Div().Body(note, app.Pre().Class("json").TabIndex(0).Aria("label", "Result of tool call "+c.ID).Text(text))
	}
	args, note := clipped("arguments:"+c.ID, c.Arguments, v.Whole, v.send)
	return app.Div().Class("call").DataSet("call", c.ID).Body(
		app.P().Class("call-head").Body(app.Text("Tool call "), app.Strong().Text(c.Name), app.Span().Class("id").Text(" "+c.ID)),
		note,
		app.Pre().Class("json").TabIndex(0).Aria("label", "Arguments of tool call "+c.ID).Text(args),
		result,
	)
}

// interrupt is what the run asked and how it was answered: its own
// questions and the replies of the run that resumed it, or, for a run that
// resumes another, that run's questions and its own replies.
func (v *talkView) interrupt() []app.UI {
	d := v.Detail
	if d == nil {
		return nil
	}
	var out []app.UI
	if len(d.Questions) > 0 || d.ResumedBy != "" {
		out = append(out, app.Div().Class("interrupt", "asked").Body(
			app.H3().Text("The agent asked"),
			questions(d.Questions),
			answeredBy(d.ResumedBy, v.Answer),
		))
	}
	if d.Resumes != "" {
		var asked []runs.Question
		if v.Asked != nil {
			asked = v.Asked.Questions
		}
		out = append(out, app.Div().Class("interrupt", "answers").Body(
			app.H3().Text("This run answers"),
			app.P().Body(app.Text("It resumes "), runLink(d.Resumes, "run "+d.Resumes), app.Text(", which asked:")),
			questions(asked),
			app.P().Text("The answer it sent:"),
			replies(d.Replies),
		))
	}
	return out
}

func questions(qs []runs.Question) app.UI {
	if len(qs) == 0 {
		return app.P().Class("hint").Text("No questions read.")
	}
	return app.Ul().Class("questions").Body(app.Range(qs).Slice(func(i int) app.UI {
		q := qs[i]
		var facts []app.UI
		facts = append(facts, app.Dt().Text("Interrupt"), app.Dd().Text(q.ID), app.Dt().Text("Reason"), app.Dd().Text(q.Reason))
		if q.Message != "" {
			facts = append(facts, app.Dt().Text("Message"), app.Dd().Class("question").Text(q.Message))
		}
		if q.ToolCallID != "" {
			facts = append(facts, app.Dt().Text("Tool call"), app.Dd().Text(q.ToolCallID))
		}
		if len(q.Schema) > 0 {
			facts = append(facts, app.Dt().Text("Answer schema"), app.Dd().Body(
				app.Pre().Class("json").TabIndex(0).Aria("label", "Answer schema of interrupt "+q.ID).Text(indent(string(q.Schema)))))
		}
		return app.Li().Body(app.Dl().Class("facts").Body(facts...))
	}))
}

func answeredBy(id string, answer *runs.Detail) app.UI {
	if id == "" {
		return app.P().Class("hint").Text("No run has answered it yet.")
	}
	var rs []runs.Reply
	if answer != nil {
		rs = answer.Replies
	}
	return app.Div().Body(
		app.P().Body(app.Text("Answered by "), runLink(id, "run "+id), app.Text(", which sent:")),
		replies(rs),
	)
}

func replies(rs []runs.Reply) app.UI {
	if len(rs) == 0 {
		return app.P().Class("hint").Text("No answers read.")
	}
	return app.Ul().Class("replies").Body(app.Range(rs).Slice(func(i int) app.UI {
		r := rs[i]
		text := "interrupt " + r.InterruptID + ": " + r.Status
		if len(r.Payload) > 0 {
			text += ", " + string(r.Payload)
		}
		return app.Li().Class("reply").Text(text)
	}))
}

// runLink shows another run; its URL names it, for a new tab or Back.
// Following it is go-app's navigation only, as a run in the list (runList).
func runLink(id, text string) app.UI {
	return app.A().Class("run-ref").Href(placeHash(id, -1)).DataSet("run", id).Text(text)
}

// safeClass keeps a role to the letters a class name may carry.
func safeClass(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s) && i < 24; i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			out = append(out, c)
		}
	}
	return string(out)
}
