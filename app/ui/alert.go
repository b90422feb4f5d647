package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/agui"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// alert explains why the run failed, and who ended it: the agent's own
// report is never shown as a broken rule (events/lifecycle). A run that
// ended otherwise, by the agent's choice, gets a notice.
type alert struct {
	app.Compo
	Lifecycle    core.Lifecycle
	Rejection    core.Rejection // the run's refused update, if one ended it
	HasRejection bool
}

// alertOf is the alert for a model.
func alertOf(m core.Model) *alert {
	a := &alert{Lifecycle: m.Lifecycle}
	if _, failed := m.Lifecycle.(core.Failed); failed {
		a.Rejection, a.HasRejection = m.LastRejection()
	}
	return a
}

func (a *alert) Render() app.UI {
	f, failed := a.Lifecycle.(core.Failed)
	if !failed {
		if n := notice(a.Lifecycle); n != nil {
			return n
		}
		return app.Text("") // nothing to say: no box at all
	}
	if r := a.Rejection; a.HasRejection {
		return app.Div().Class("alert").Role("alert").Body(
			app.H2().Text("Update refused: no measurements changed"),
			app.P().Body(
				app.Text("The agent's "+string(r.Event)+" failed at "),
				app.Strong().Text(r.Operation()),
				app.Text(": "+r.Reason+"."),
			),
			app.P().Text(fmt.Sprintf("The whole update was refused, so the chart still shows the last valid data. Run %s stopped; Recover starts a fresh run.", r.RunID)),
			ruleLines(f),
		)
	}
	heading, detail := "The stream broke AG-UI 1.x", "The chart keeps the last valid data. Recover starts a fresh run."
	switch f.Kind {
	case core.AgentReported:
		heading = "The agent reported that its run failed"
		detail = "This is the agent's own report, not a broken rule. The data it delivered stays; Recover starts a fresh run."
	case core.Transport:
		heading = "The connection failed"
	case core.Refusal, core.Undrawable:
		heading = "This demo stopped the run"
	}
	return app.Div().Class("alert").Role("alert").Body(
		app.H2().Text(heading),
		app.P().Text(f.Reason+"."),
		app.P().Text(detail),
		ruleLines(f),
	)
}

// notice tells how a run ended that neither failed nor succeeded.
func notice(l core.Lifecycle) app.UI {
	switch l := l.(type) {
	case core.Cancelled:
		if l.Cause != core.ByAgent {
			return nil
		}
		return app.Div().Class("notice").Body(
			app.H2().Text("The agent cancelled the run"),
			app.P().Text("It stopped on purpose before it completed: what it delivered stays, and it is not a success (events/lifecycle)."),
		)
	}
	return nil
}

// ruleLines say whose rule ended a failed run and name the lifecycle rule
// that decided it, with what that rule is. A broken stream quotes the
// AG-UI 1.x rule it broke; a run this demo stopped says the choice was
// its own: where 1.x lets a client go on, its words are quoted as the
// permission they are, never as a violation.
func ruleLines(f core.Failed) app.UI {
	var whose app.UI
	switch {
	case f.Kind == core.Undrawable:
		whose = app.P().Text("This demo draws only {services: [...]} state, each service an id, a name, a series (Core or Platform), " +
			"a volume and a latency, and fails a run over any other. AG-UI 1.x lets a state be any JSON value: the stream broke no rule.")
	case f.Kind == core.Refusal && f.Broke == agui.Limit:
		whose = app.P().Body(
			app.Text("This demo's own bound, not a rule of AG-UI 1.x: "),
			app.Q().Text(f.Broke.Quote()),
			app.Text("."),
		)
	case f.Kind == core.Refusal && f.Broke == "":
		whose = app.P().Text("This demo's own check refused it before anything was sent: no rule of AG-UI 1.x was broken by the stream.")
	case f.Kind == core.Refusal:
		whose = app.P().Body(
			app.Text("This demo's choice, not a broken rule. AG-UI 1.x ("+f.Broke.Page()+") permits either: a client "),
			app.Q().Text(f.Broke.Quote()),
			app.Text(". This demo fails the run instead, so that a refused update is never half drawn."),
		)
	case f.Broke != "":
		whose = app.P().Body(
			app.Text("Broke AG-UI 1.x ("+f.Broke.Page()+"): "),
			app.Q().Text(f.Broke.Quote()),
		)
	}
	return app.Div().Class("rule").Body(
		whose,
		app.P().Text(fmt.Sprintf("Decided by lifecycle rule %d: %s.", f.DecidedBy, f.DecidedBy)),
	)
}
