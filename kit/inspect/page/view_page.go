package page

import (
	goruntime "runtime"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// page is the inspector, a thin shell around Update: it renders the Model
// and turns DOM events and the runtime's answers into Msgs. Its fields are
// unexported: go-app copies exported fields of a fresh instance onto the
// mounted one.
type page struct {
	app.Compo
	model   Model
	ctx     app.Context // the OnMount context: Dispatch needs a mounted source
	runtime *runtime    // nil until mounted in the browser
	reveal  int         // the Scroll.Reveal the box was last moved for

	// rehearsal is the sample run drawn out of sight while the page starts
	// (rehearsal.go); rehearsed, once it is gone.
	rehearsal *Shown
	rehearsed bool
}

// OnMount runs in the browser only: the live feed starts here, never
// during the server's prerender.
func (p *page) OnMount(ctx app.Context) {
	p.ctx = ctx
	p.runtime = newRuntime(p.deliver)
	p.send(Located{Hash: app.Window().Get("location").Get("hash").String()})
	p.runtime.listen()
	p.rehearse()
}

// rehearse draws the sample run's stages, each in a task of its own after
// the page's first; the next task has the browser lay out what was drawn
// and draws the next stage, or takes the sample away after the last. Then
// the collector runs once, in a task of its own: its first run compiles its
// code, which would otherwise hold up the first run large enough to need
// it by some 30 ms. No task holds the page for the whole.
func (p *page) rehearse() {
	var stages []Shown // made in the first step, not in the page's first task
	var step func(i int)
	step = func(i int) {
		nextTask(func() {
			if r := app.Window().Get("document").Call("querySelector", ".rehearsal"); r.Truthy() {
				r.Get("offsetHeight") // lay out the stage drawn last, now
			}
			p.ctx.Dispatch(func(ctx app.Context) {
				if stages == nil {
					stages = rehearsal()
				}
				if i > len(stages) {
					goruntime.GC()
					p.rehearsed = true
					return
				}
				p.rehearsal = nil
				if i < len(stages) {
					p.rehearsal = &stages[i]
				}
				ctx.Defer(func(app.Context) { step(i + 1) })
			})
		})
	}
	step(0)
}

func (p *page) OnDismount() {
	if p.runtime != nil {
		p.runtime.close()
	}
}

// OnNav follows the URL's fragment: a run's link, or the browser's Back.
func (p *page) OnNav(ctx app.Context) {
	ctx.Page().SetTitle("Agent Analysis: the AG-UI inspector")
	hash := app.Window().Get("location").Get("hash").String()
	if id, cursor := readPlace(hash); p.runtime == nil || id == p.model.Shown.ID && cursor == p.model.Shown.Cursor {
		ctx.PreventUpdate() // a link to what is shown already: nothing to draw
		return
	}
	p.send(Located{Hash: hash})
}

// send runs a Msg through Update and performs its Cmd; on the UI
// goroutine only.
func (p *page) send(msg Msg) {
	var cmd Cmd
	p.model, cmd = Update(p.model, msg)
	if s := p.model.Shown.Scroll; s.Reveal != p.reveal {
		p.reveal = s.Reveal
		p.ctx.Defer(func(app.Context) { scrollTimeline(s.Top) })
	}
	if p.runtime != nil {
		p.runtime.perform(cmd)
	}
}

// deliver hands the runtime's Msg to the UI goroutine.
func (p *page) deliver(msg Msg) {
	p.ctx.Dispatch(func(app.Context) { p.send(msg) })
}

func (p *page) Render() app.UI {
	m := p.model
	return app.Div().Class("page", "inspector").DataSet("ready", p.runtime != nil && p.rehearsed).
		OnDragOver(p.dragOver).OnDrop(p.drop).Body(
		app.A().Class("skip").Href("#main").OnClick(skipToMain).Text("Skip to content"),
		&topBar{Live: m.Live, Ready: p.runtime != nil, send: p.send},
		app.P().ID("status").Class("status-line").Attr("role", "status").Aria("live", "polite").Text(m.Status),
		app.Main().ID("main").TabIndex(-1).Body(
			app.H1().Class("visually-hidden").Text("The AG-UI inspector"),
			app.Div().Class("inspector-layout").Body(
				&runList{Threads: Threads(m.Runs), Selected: m.Shown.ID, Listed: m.Listed},
				runView(m.Shown, p.send),
			),
		),
		app.If(p.rehearsal != nil, func() app.UI { return rehearsalView(*p.rehearsal) }),
	)
}

// dragOver lets a file be dropped anywhere on the page.
func (p *page) dragOver(ctx app.Context, e app.Event) {
	e.PreventDefault()
	ctx.PreventUpdate()
}

// drop opens the files dropped on the page.
func (p *page) drop(ctx app.Context, e app.Event) {
	e.PreventDefault()
	if files := e.Get("dataTransfer").Get("files"); files.Truthy() {
		p.send(ChoseFiles{Files: filesOf(files)})
	}
}

// filesOf are a FileList's files.
func filesOf(list app.Value) []File {
	var out []File
	for i := range list.Length() {
		f := list.Index(i)
		out = append(out, File{Name: f.Get("name").String(), Handle: f})
	}
	return out
}

// skipToMain moves focus into <main>, so that the next Tab starts there.
func skipToMain(ctx app.Context, e app.Event) {
	e.PreventDefault()
	app.Window().GetElementByID("main").Call("focus")
}
