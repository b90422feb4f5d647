package ui

import (
	"crypto/rand"
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/catalogue"
	"github.com/agent-analysis/agent-analysis/app/chart"
	"github.com/agent-analysis/agent-analysis/app/core"
	"github.com/agent-analysis/agent-analysis/app/effects"
)

// modelState keeps the Model in memory while the demo is not mounted, so
// coming back from /charts shows the cancelled run's last valid data.
const modelState = "agent-analysis/model"

// demo is the live screen, a thin shell around the client core: it renders
// the Model and turns DOM events and stream Msgs into Update calls. Its
// fields are unexported on purpose: go-app copies exported fields of the
// fresh instance each navigation makes onto the mounted one.
type demo struct {
	app.Compo
	model     core.Model
	scenarios catalogue.Catalogue // what the Scenario select offers
	path      string
	ctx       app.Context     // the OnMount context: Dispatch needs a mounted source
	runner    *effects.Runner // performs Update's Cmds; nil until mounted in the browser
	pageHide  app.Func        // leaving the page ends the run, through Update

	table      *serviceTable // the table in the page, for focus to find rows
	arrivalLog *arrivalLog   // the arrival log in the page, to open at a warning
	chartWidth float64       // the chart's box, as the browser measured it
	chartBox   boxWatch      // reports changes of that width
	refocusing bool          // a focus check is due once this render is done
	asking     bool          // a question appeared: focus goes to it once this render is done
}

func newDemo(scenarios catalogue.Catalogue) func() app.Composer {
	return func() app.Composer {
		return &demo{model: core.NewModel(""), scenarios: scenarios, path: livePath}
	}
}

// OnMount runs in the browser only. Nothing starts here: runs start from
// a click.
func (d *demo) OnMount(ctx app.Context) {
	d.ctx, d.refocusing = ctx, false
	var saved core.Model
	ctx.GetState(modelState, &saved)
	if saved.Lifecycle != nil {
		d.model = saved
	} else {
		d.model = core.NewModel("thread-" + strings.ToLower(rand.Text()[:12]))
	}
	origin := app.Window().URL()
	endpoint := origin.Scheme + "://" + origin.Host + "/api/agent-analysis"
	d.runner = effects.NewRunner(effects.Client{Endpoint: endpoint}, d.deliver)
	// A reload or a closed tab leaves the demo: the run is cancelled as a
	// route exit and its request aborted at once, and a page restored from
	// the back/forward cache shows it so, not as live.
	d.pageHide = app.FuncOf(func(app.Value, []app.Value) any {
		d.runner.Close() // now: a hidden page may be frozen before the UI goroutine runs
		d.deliver(core.Navigated{To: core.Exited})
		return nil
	})
	app.Window().Call("addEventListener", "pagehide", d.pageHide)
	// Measured now, so that the first render in the browser draws the chart
	// at its size.
	d.chartWidth = d.chartBox.watch(chartBoxID, func(width, _ float64) {
		ctx.Dispatch(func(ctx app.Context) {
			if width == d.chartWidth {
				ctx.PreventUpdate()
				return
			}
			d.chartWidth = width
		})
	})
}

// OnNav runs for both demo routes, on the kept instance too (and during
// the server's prerender, where there is no stream to tell).
func (d *demo) OnNav(ctx app.Context) {
	d.path = ctx.Page().URL().Path
	title := "Agent Analysis · AG-UI state sync"
	if d.path == retainedPath {
		title = "Retained view · Agent Analysis"
	}
	ctx.Page().SetTitle(title)
	if d.runner != nil {
		d.send(core.Navigated{To: core.Stayed})
	}
}

// OnDismount: leaving the demo cancels an open run (RouteExit) and closes
// every connection.
func (d *demo) OnDismount() {
	d.send(core.Navigated{To: core.Exited})
	d.runner.Close()
	d.chartBox.stop()
	app.Window().Call("removeEventListener", "pagehide", d.pageHide)
	d.pageHide.Release()
}

// send runs one Msg through Update and performs its Cmd. It runs on the
// UI goroutine only. Once the render is done, focus is put back where the
// render may have taken it from (see focusTarget).
func (d *demo) send(msg core.Msg) {
	if !d.refocusing {
		d.refocusing = true
		before := focused()
		d.ctx.Defer(func(app.Context) {
			d.refocusing = false
			if d.asking { // the agent asks: the person's attention goes to the question
				d.asking = false
				focusFirst(app.Window().Get("document").Call("getElementById", questionID))
				return
			}
			before.restore(d.table)
		})
	}
	_, wasAsking := d.model.Lifecycle.(core.Interrupted)
	var cmd core.Cmd
	d.model, cmd = core.Update(d.model, msg)
	if _, asks := d.model.Lifecycle.(core.Interrupted); asks && !wasAsking {
		d.asking = true
	}
	d.ctx.SetState(modelState, d.model)
	d.runner.Perform(cmd)
}

// showWarnings opens the arrival log and moves focus to the first
// event the engine warned about.
func (d *demo) showWarnings() {
	if d.arrivalLog != nil {
		d.arrivalLog.reveal()
	}
}

// deliver hands a stream's Msg to the UI goroutine.
func (d *demo) deliver(msg core.Msg) {
	d.ctx.Dispatch(func(app.Context) { d.send(msg) })
}

// Render lays out the page; each part is a component that draws again
// only when what it shows changed, so a Msg costs what it changed.
func (d *demo) Render() app.UI {
	m := d.model
	ready := d.runner != nil
	var chunks [][]core.Service
	if m.Wire != nil {
		chunks = m.Wire.Chunks()
	}
	return shell(d.path,
		app.Div().Class("demo").DataSet("ready", ready).DataSet("thread", m.ThreadID()).Body(
			&intro{Path: d.path},
			&controls{
				Scenario: m.Scenario, Scenarios: d.scenarios, Ready: ready, Lifecycle: m.Lifecycle,
				StreamOpen: m.Connection != 0, Accepted: m.Accepted, Warned: m.Warned, Filter: m.Filter,
				send: d.send, showWarnings: d.showWarnings,
			},
			app.Div().Class("layout").Body(
				app.Section().Class("card", "chart-card").Aria("labelledby", "chart-title").Body(
					app.H2().ID("chart-title").Text("p95 latency against volume"),
					app.Div().ID(chartBoxID).Body(&chartView{
						Chunks: chunks, HasData: m.Wire != nil, Baseline: m.Baseline,
						Selected: m.Selected, Filter: m.Filter, Width: d.chartWidth,
					}),
					&legend{},
				),
				app.Div().Class("side").Body(
					alertOf(m),
					questionOf(m, d.send),
					inspectorOf(m),
				),
			),
			app.Section().Class("card").Aria("labelledby", "table-title").Body(
				app.H2().ID("table-title").Text("Services"),
				&serviceTable{
					Chunks: chunks, HasData: m.Wire != nil, Baseline: m.Baseline,
					Selected: m.Selected, Filter: m.Filter,
					send: d.send, mounted: func(t *serviceTable) { d.table = t },
				},
			),
			&activity{Entries: m.Activity},
			&arrivalLog{Arrivals: m.Arrivals, mounted: func(l *arrivalLog) { d.arrivalLog = l }},
		),
	)
}

// intro says what the page is.
type intro struct {
	app.Compo
	Path string
}

func (in *intro) Render() app.UI {
	if in.Path == retainedPath {
		return app.Header().Class("intro").Body(
			app.H1().Text("Retained view"),
			app.P().Text("The same live component as the main view: moving between the two keeps the stream, "+
				"the data and your selection, and starts no request."),
		)
	}
	return app.Header().Class("intro").Body(
		app.H1().Text("Agent Analysis: AG-UI state sync"),
		app.P().Text("An AG-UI stream feeds this chart: a snapshot sets the run's baseline, JSON Patch deltas "+
			"apply atomically, and an unsafe update is refused whole, keeping the last valid data."),
	)
}

// legend explains the chart's symbols; it never changes.
type legend struct{ app.Compo }

func (l *legend) Render() app.UI {
	return app.Ul().Class("legend").Aria("label", "Legend").Body(
		app.Li().Body(shapeKey("Core"), app.Text("Core")),
		app.Li().Body(shapeKey("Platform"), app.Text("Platform")),
		app.Li().Body(
			svg("svg").Class("key", "baseline").Attr("viewBox", "0 0 16 16").Aria("hidden", true).Body(
				svg("circle").Attr("cx", "8").Attr("cy", "8").Attr("r", "5"),
			),
			app.Text("Baseline: the run's first snapshot (a resumed run keeps its thread's)"),
		),
		app.Li().Body(
			svg("svg").Class("key", "ring-key").Attr("viewBox", "0 0 16 16").Aria("hidden", true).Body(
				svg("circle").Attr("cx", "8").Attr("cy", "8").Attr("r", "6"),
			),
			app.Text("Selected"),
		),
		app.Li().Body(
			svg("svg").Class("key", "budget-key").Attr("viewBox", "0 0 16 16").Aria("hidden", true).Body(
				svg("line").Attr("x1", "0").Attr("y1", "8").Attr("x2", "16").Attr("y2", "8"),
			),
			app.Text(fmt.Sprintf("%d ms p95 budget: illustrative, not an SLO", chart.BudgetMs)),
		),
	)
}
