package ui

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// arrivalLog is the disclosure labelled "Wire" (class wire): the events
// this run received, newest last, each with what the client did with it,
// what the engine warned about, and its JSON. Closed, it draws nothing but
// its summary: a stream costs the page nothing here until someone looks.
type arrivalLog struct {
	app.Compo
	Arrivals []core.Arrival

	disclosed
	ctx     app.Context
	mounted func(*arrivalLog) // tells the page where the mounted disclosure is
}

func (l *arrivalLog) OnMount(ctx app.Context) {
	l.ctx = ctx
	if l.mounted != nil {
		l.mounted(l)
	}
}

// reveal opens the disclosure and, once its events are drawn, moves focus
// to the first the engine warned about (else to its summary).
func (l *arrivalLog) reveal() {
	l.ctx.Dispatch(func(ctx app.Context) {
		l.open = true
		ctx.Defer(func(app.Context) {
			doc := app.Window().Get("document")
			focusFirst(doc.Call("querySelector", ".wire .arrival.warned"), doc.Call("querySelector", ".wire summary"))
		})
	})
}

func (l *arrivalLog) Render() app.UI {
	arrivals := l.Arrivals
	return app.Details().Class("card", "wire").Open(l.open).OnToggle(l.toggled).Body(
		app.Summary().Text(fmt.Sprintf("Wire (this run's events, last %d)", core.MaxArrivals)),
		app.If(l.open && len(arrivals) == 0, func() app.UI { return app.P().Class("hint").Text("No events yet: press Run.") }),
		app.If(l.open, func() app.UI {
			return app.Ol().Class("arrivals").Body(
				app.Range(arrivals).Slice(func(i int) app.UI { return &arrivalItem{Arrival: arrivals[i]} }),
			)
		}),
	)
}

// disclosed is the state of a <details> that draws its content only while
// open: closed, what it lists costs the page nothing.
type disclosed struct{ open bool }

func (d *disclosed) toggled(ctx app.Context, e app.Event) {
	if open := ctx.JSSrc().Get("open").Bool(); open != d.open {
		d.open = open
		return
	}
	ctx.PreventUpdate()
}

// arrivalItem is one event of the arrival log.
type arrivalItem struct {
	app.Compo
	Arrival core.Arrival
}

func (item *arrivalItem) Render() app.UI {
	a := item.Arrival
	li := app.Li().Class("arrival", verdictClass(a.Verdict)).DataSet("verdict", string(a.Verdict))
	if len(a.Warnings) > 0 {
		// Where the status line's warnings button takes focus.
		li = li.Class("warned").TabIndex(-1).Aria("label", fmt.Sprintf("Event %d, %s, %s", a.Seq, a.Type, warnings(len(a.Warnings))))
	}
	return li.Body(
		app.P().Class("arrival-head").Body(
			app.Span().Class("seq").Text(fmt.Sprintf("#%d", a.Seq)),
			app.Text(fmt.Sprintf(" · %.2f s · ", a.At.Seconds())),
			app.Strong().Text(a.Type),
			app.Text(fmt.Sprintf(" · %s B · ", num(float64(a.Size)))),
			app.Span().Class("verdict").Text(string(a.Verdict)),
		),
		app.If(len(a.Warnings) > 0, func() app.UI {
			return app.Ul().Class("arrival-warnings").Body(
				app.Range(a.Warnings).Slice(func(i int) app.UI { return app.Li().Text("Warning: " + a.Warnings[i]) }),
			)
		}),
		// Focusable so that a keyboard can scroll it; its text can be
		// selected and copied.
		app.Pre().TabIndex(0).Aria("label", fmt.Sprintf("Event %d, %s, JSON", a.Seq, a.Type)).Text(pretty(a.JSON)),
	)
}

// pretty indents an event's JSON; one cut at its bound stays as it is.
func pretty(raw string) string {
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(raw), "", "  "); err != nil {
		return raw + " …"
	}
	return b.String()
}

func verdictClass(v core.Verdict) string {
	switch v {
	case core.Refused, core.RunFailed:
		return "problem"
	case core.Dropped, core.AfterTheEnd:
		return "warning"
	default:
		return "info"
	}
}
