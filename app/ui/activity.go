package ui

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// activity is the bounded log, newest first; drawn only while open.
type activity struct {
	app.Compo
	Entries []core.Entry

	disclosed
}

func (a *activity) Render() app.UI {
	entries := a.Entries
	if !a.open {
		entries = nil
	}
	n := len(entries)
	return app.Details().Class("card", "activity").Open(a.open).OnToggle(a.toggled).Body(
		app.Summary().Text(fmt.Sprintf("Activity (last %d)", core.MaxActivity)),
		app.If(a.open && n == 0, func() app.UI { return app.P().Class("hint").Text("Nothing yet.") }),
		app.Ol().Reversed(true).Body(
			app.Range(entries).Slice(func(i int) app.UI {
				e := entries[n-1-i]
				return app.Li().Class(levelClass(e.Level)).Body(
					app.Span().Class("run").Text(e.RunID),
					app.Text(" "+e.Text),
				)
			}),
		),
	)
}

func levelClass(l core.Level) string {
	switch l {
	case core.Warning:
		return "warning"
	case core.Problem:
		return "problem"
	default:
		return "info"
	}
}
