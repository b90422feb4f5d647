package ui

import (
	"html"
	"strings"

	"github.com/agent-analysis/agent-analysis/app/core"
)

// markup writes SVG elements as text; every value an agent sent is
// escaped.
type markup struct{ strings.Builder }

// startTag writes a start tag with a class and one more attribute.
func (b *markup) startTag(tag, class, name, value string) {
	b.WriteString("<" + tag + ` class="` + class + `" ` + name + `="` + html.EscapeString(value) + `">`)
}

// shape writes a series' symbol as shape draws it, with a class and one
// more attribute when given.
func (b *markup) shape(series core.Series, x, y, r float64, class, name, value string) {
	if series == core.PlatformSeries {
		b.WriteString("<path")
		b.attrs(class, name, value)
		b.WriteString(` d="` + diamond(x, y, r) + `"/>`)
		return
	}
	b.circle(class, x, y, r, name, value)
}

func (b *markup) circle(class string, x, y, r float64, name, value string) {
	b.WriteString("<circle")
	b.attrs(class, name, value)
	b.WriteString(` cx="` + fixed(x) + `" cy="` + fixed(y) + `" r="` + fixed(r) + `"/>`)
}

func (b *markup) attrs(class, name, value string) {
	if class != "" {
		b.WriteString(` class="` + class + `"`)
	}
	if name != "" {
		b.WriteString(" " + name + `="` + html.EscapeString(value) + `"`)
	}
}

// fragment is what was written, as one SVG element that go-app can mount
// (its root must be an element the browser parses as SVG); "" when nothing
// was.
func (b *markup) fragment() string {
	if b.Len() == 0 {
		return ""
	}
	return `<svg overflow="visible">` + b.String() + `</svg>`
}
