package ui

import (
	"github.com/agent-analysis/agent-analysis/internal/theme"
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Paths of the pages.
const (
	livePath     = "/agent-analysis"
	retainedPath = "/agent-analysis/retained"
	chartsPath   = "/charts"
)

// shell is the layout every page shares: header with navigation and the
// theme switch, the page's content, the footer.
func shell(current string, content ...app.UI) app.UI {
	return app.Div().Class("page").Body(
		&topBar{Current: current},
		app.Main().ID("main").TabIndex(-1).Body(content...),
		&footer{},
	)
}

// topBar is the skip link and the header: drawn again only on navigation.
type topBar struct {
	app.Compo
	Current string
}

func (b *topBar) Render() app.UI {
	return app.Div().Class("top-bar").Body(
		app.A().Class("skip").Href("#main").OnClick(skipToMain).Text("Skip to content"),
		app.Header().Class("top").Body(
			app.P().Class("brand").Body(
				app.Strong().Text("Agent Analysis"),
				app.Span().Class("badge").Text("Synthetic data"),
			),
			app.Nav().Aria("label", "Pages").Body(
				navLink(b.Current, livePath, "Live view"),
				navLink(b.Current, retainedPath, "Retained view"),
				navLink(b.Current, chartsPath, "All charts"),
			),
			&theme.Switch{},
		),
	)
}

// footer never changes.
type footer struct{ app.Compo }

func (f *footer) Render() app.UI {
	return app.Footer().Class("foot").Body(
		app.P().Text("All data is synthetic, served by a deterministic fixture backend. " +
			"The 100 ms p95 budget line is illustrative, not an SLO."),
	)
}

func navLink(current, path, label string) app.UI {
	a := app.A().Href(path).Text(label)
	if current == path {
		a = a.Aria("current", "page")
	}
	return a
}

// skipToMain moves focus into <main>, so that the next Tab starts there:
// following the link alone only scrolls.
func skipToMain(ctx app.Context, e app.Event) {
	e.PreventDefault()
	app.Window().GetElementByID("main").Call("focus")
}
