package ui

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/core"
)

// scenarioPick is the Scenario select and the line under it, drawn again
// only when the choice changes.
type scenarioPick struct {
	app.Compo
	Chosen    string
	Scenarios catalogue.Catalogue

	send func(core.Msg)
}

func (p *scenarioPick) Render() app.UI {
	send := p.send
	return app.Div().Class("group", "scenario-pick").Body(
		app.Label().For("scenario").Text("Scenario"),
		// The value follows the Model (go-app sets it as the property), so
		// Recover shows normal without writing to the DOM itself.
		app.Select().ID("scenario").Attr("value", p.Chosen).Aria("describedby", "scenario-says").
			OnChange(func(ctx app.Context, e app.Event) { send(core.ChoseScenario{Name: ctx.JSSrc().Get("value").String()}) }).
			Body(
				app.Range(catalogue.Groups).Slice(func(i int) app.UI {
					return scenarioGroup(catalogue.Groups[i], p.Scenarios, p.Chosen)
				}),
			),
		scenarioLine(p.Scenarios, p.Chosen),
	)
}

// groupLabels name the Scenario select's groups.
var groupLabels = map[catalogue.Group]string{
	catalogue.Demo:  "Scenarios",
	catalogue.Fatal: "Faults 1.0 rejects",
	catalogue.Warn:  "Faults 1.0 warns about",
	catalogue.Legal: "Legal in 1.0",
	catalogue.File:  "From the server's files",
}

// scenarioGroup is one optgroup of the Scenario select; none when the
// group is empty.
func scenarioGroup(g catalogue.Group, scenarios catalogue.Catalogue, chosen string) app.UI {
	entries := scenarios.In(g)
	if len(entries) == 0 {
		return nil
	}
	options := make([]app.UI, len(entries))
	for i, e := range entries {
		options[i] = onlyIf(app.Option().Value(e.Name).Text(e.Name), e.Name == chosen, app.HTMLOption.Selected)
	}
	return app.Elem("optgroup").Attr("label", groupLabels[g]).Body(options...)
}

// scenarioLine says what the chosen script sends, the AG-UI 1.0 rule it
// exercises, what a conforming client must do, and what this one does.
func scenarioLine(scenarios catalogue.Catalogue, name string) app.UI {
	s, _ := scenarios.Lookup(name)
	return app.Div().ID("scenario-says").Class("scenario-says").Body(
		app.P().Text(s.Description),
		app.If(s.Rule.Quote != "", func() app.UI {
			return app.P().Class("rule-quote").Body(
				app.Text("AG-UI 1.0 ("+s.Rule.Page+"): "),
				app.Q().Text(s.Rule.Quote),
			)
		}),
		app.If(s.Must != "", func() app.UI {
			return app.P().Body(app.Strong().Text("A conforming client: "), app.Text(s.Must))
		}),
		app.If(s.ThisDemo != "", func() app.UI {
			return app.P().Body(app.Strong().Text("This demo: "), app.Text(s.ThisDemo))
		}),
	)
}
