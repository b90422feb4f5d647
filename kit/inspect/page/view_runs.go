package page

import (
	"fmt"
	"path"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/kit/inspect/runs"
)

// runList is the runs, newest first, grouped by thread: each a link that
// shows it (its URL names it, so it opens in a new tab too). Following
// one is go-app's navigation, which reaches the page as OnNav, in order
// with every other input: a choice made here as well would race the
// navigation, which lands later and takes back a step made meanwhile.
type runList struct {
	app.Compo
	Threads  []Thread
	Selected string
	Listed   bool
}

func (l *runList) Render() app.UI {
	var body []app.UI
	switch {
	case !l.Listed && len(l.Threads) == 0:
		body = append(body, app.P().Class("hint").Text("Reading the runs…"))
	case len(l.Threads) == 0:
		body = append(body, app.P().Class("hint").Text("No runs yet. Runs passing agent-analysis proxy -inspect show here as they happen; "+
			"drop a capture, a script or a proxy's log on the page, or press Open file."))
	}
	for _, th := range l.Threads {
		title := "Thread " + th.ID
		if th.ID == "" {
			title = "No thread"
		}
		body = append(body, app.Div().Class("thread").Body(
			app.H3().Text(title),
			app.Ol().Class("run-list").Aria("label", title).Body(
				app.Range(th.Runs).Slice(func(i int) app.UI { return l.item(th.Runs[i]) }),
			),
		))
	}
	return app.Nav().Class("card", "runs").Aria("labelledby", "runs-title").Body(
		append([]app.UI{app.H2().ID("runs-title").Text("Runs")}, body...)...,
	)
}

func (l *runList) item(r runs.Run) app.UI {
	source := "live"
	if r.Source != "live" {
		source = "file " + path.Base(r.Source)
	}
	a := app.A().Class("run-link").Href(placeHash(r.ID, -1)).DataSet("run", r.ID).DataSet("status", string(r.Status)).Body(
		app.Span().Class("run-name").Body(
			app.Span().Class("run-id").Text("#"+r.ID),
			app.Text(" "+r.Name),
		),
		app.Span().Class("run-facts").Body(
			app.Span().Class("verdict", statusClass(string(r.Status))).Text(Verdict(r)),
			app.Text(fmt.Sprintf(" · %s · %s", source, count(r.Events, "event"))),
		),
	)
	if r.ID == l.Selected {
		a = a.Aria("current", "true")
	}
	return app.Li().Body(a)
}
