package ui

import (
	"fmt"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// questionID is the question's box: focus moves there when it appears.
const questionID = "question"

// maxAsks bounds what the box quotes of the agent's words, in bytes: an
// event may carry a megabyte of them.
const maxAsks = 1000

// question is the agent's question while a run is interrupted, with the
// answers the screen can give: Approve and Reject for an approval (a
// one-boolean responseSchema) that has not expired, and Cancel request
// for any. Answering starts the resumed run (rule 5).
type question struct {
	app.Compo
	Asked       bool // the run is interrupted
	ID          string
	Asks        string // the agent's message, or its reason when it sent none
	Approval    bool   // Approve and Reject can answer it
	Expired     bool
	ExpiresAt   string // as the agent wrote it
	Expiry      time.Time
	HasExpiry   bool
	Others      int  // interrupts besides the question: answering cancels them
	WithoutData bool // the run applied no state of its own: the resumed run starts from the empty state

	send func(core.Msg)
}

// questionOf is the question of a model; an empty one when the run is not
// interrupted.
func questionOf(m core.Model, send func(core.Msg)) *question {
	l, asked := m.Lifecycle.(core.Interrupted)
	if !asked {
		return &question{send: send}
	}
	_, in := l.Question()
	asks := core.ClipTo(in.Message, maxAsks)
	if asks == "" {
		asks = "It gives no question in words, only its reason: " + core.Clip(in.Reason) + "."
	}
	_, approval := l.Approval()
	expiry, hasExpiry := in.Expiry()
	return &question{
		Asked: true, ID: in.ID, Asks: asks, Approval: approval,
		Expired: l.QuestionExpired(), ExpiresAt: core.Clip(in.ExpiresAt), Expiry: expiry, HasExpiry: hasExpiry,
		Others:      len(l.Pending.Interrupts) - 1,
		WithoutData: m.Baseline == nil,
		send:        send,
	}
}

func (q *question) Render() app.UI {
	if !q.Asked {
		return app.Text("") // nothing asked: no box at all
	}
	// go-app keeps a handler made at the same place in the code: a new
	// question gets handlers of its own through its scope.
	send, id, scope := q.send, q.ID, app.EventScope(q.ID)
	answer := func(c core.Choice) app.EventHandler {
		return func(app.Context, app.Event) { send(core.ClickedAnswer{Interrupt: id, Choice: c, At: time.Now()}) }
	}
	var buttons []app.UI
	if q.Approval {
		buttons = append(buttons,
			app.Button().Type("button").Class("primary").Text("Approve").OnClick(answer(core.Approve), scope),
			app.Button().Type("button").Text("Reject").OnClick(answer(core.Reject), scope),
		)
	}
	buttons = append(buttons, app.Button().Type("button").Text("Cancel request").OnClick(answer(core.CancelRequest), scope))
	return app.Section().ID(questionID).Class("card", "question").TabIndex(-1).Aria("labelledby", "question-title").Body(
		app.H2().ID("question-title").Text("The agent asks"),
		app.P().Class("asks").Text(q.Asks),
		app.If(q.Expired, func() app.UI {
			return app.P().Class("expired").Text(fmt.Sprintf("This request expired %s: it can no longer be approved or rejected, only cancelled.", q.when()))
		}).ElseIf(q.HasExpiry, func() app.UI {
			return app.P().Class("hint").Text(fmt.Sprintf("Answer before %s.", q.when()))
		}),
		app.If(q.Others > 0, func() app.UI {
			return app.P().Class("hint").Text(fmt.Sprintf("The agent asked %d more question(s) this screen cannot answer: any answer here cancels them.", q.Others))
		}),
		app.P().Class("hint").Text(q.resumes()),
		app.Div().Class("group").Role("group").Aria("label", "Answer").Body(buttons...),
	)
}

// when is the expiry for people: a date read as RFC 3339 in UTC, else as
// the agent wrote it.
func (q *question) when() string {
	if q.HasExpiry {
		return "at " + q.Expiry.UTC().Format("2 Jan 2006, 15:04 UTC")
	}
	return "at " + q.ExpiresAt
}

// resumes says what answering does.
func (q *question) resumes() string {
	what := "the data, filter, selection and baseline carry over"
	if q.WithoutData {
		what = "filter and selection carry over"
	}
	if !q.Approval {
		return "Cancel request resumes the run without an answer, as a new run on the same thread: " + what + "."
	}
	return "Answering resumes the run as a new run on the same thread: " + what + "."
}
