package server

import (
	"iter"
	"net/http"
	"strconv"
	"strings"

	"github.com/agent-analysis/agent-analysis/agui/proto"
)

// Content negotiation (basic/transports): a stream goes out as SSE, the
// default, or in AG-UI's binary transport when the client asks for it.
// The request's Accept is read as the official encoders read it (media
// ranges with q-values, the most specific range that matches a type
// deciding its q, ties going to the range listed first), with one
// difference on purpose: the binary type is chosen only when a range
// names it, never through */* or application/*, so that a client which
// accepts anything (curl, a browser's fetch) gets text it can read.

// wire is an encoding of a stream.
type wire int

const (
	sse    wire = iota // text/event-stream, data: lines of JSON
	binary             // application/vnd.ag-ui.event+proto, length-prefixed Event messages
)

func (w wire) contentType() string {
	if w == binary {
		return proto.MediaType
	}
	return "text/event-stream"
}

// acceptance is how much a request's Accept wants each encoding: its q
// (0 for not at all), how specific the range that decided it is
// (specificity), and where that range stands in the header.
type acceptance struct {
	sse, binary      float64
	sseSpec, binSpec int
	sseAt, binAt     int
}

// negotiate reads an Accept header; "" accepts anything.
func negotiate(accept string) acceptance {
	switch {
	case accept == "text/event-stream": // what AG-UI's clients send
		return acceptance{sse: 1, sseSpec: 2, binSpec: -1}
	case accept == proto.MediaType: // what they send for the binary transport
		return acceptance{binary: 1, binSpec: 2, sseSpec: -1}
	case strings.TrimSpace(accept) == "":
		return acceptance{sse: 1, sseSpec: 0, binSpec: -1}
	}
	a := acceptance{sseSpec: -1, binSpec: -1}
	i := -1
	for r := range fields(accept, ',') {
		i++
		typ, q, ok := mediaRange(r)
		if !ok {
			continue
		}
		if s := specificity(typ, "text/event-stream"); s >= 0 && (s > a.sseSpec || (s == a.sseSpec && q > a.sse)) {
			a.sseSpec, a.sse, a.sseAt = s, q, i
		}
		if s := specificity(typ, proto.MediaType); s >= 0 && (s > a.binSpec || (s == a.binSpec && q > a.binary)) {
			a.binSpec, a.binary, a.binAt = s, q, i
		}
	}
	return a
}

// pick is the encoding to send, given whether the script can be carried
// in binary; ok is false when the request accepts neither that can be
// sent.
func (a acceptance) pick(binaryOK bool) (wire, bool) {
	prefers := a.binary > a.sse || (a.binary == a.sse && (a.binSpec > a.sseSpec || (a.binSpec == a.sseSpec && a.binAt < a.sseAt)))
	wantsBinary := binaryOK && a.binSpec == 2 && a.binary > 0 && prefers
	switch {
	case wantsBinary:
		return binary, true
	case a.sse > 0:
		return sse, true
	}
	return sse, false
}

// mediaRange reads one range of an Accept header: its type, lowercased,
// and its q (1 when not given); ok is false for one that is not a
// media range, or whose q is not a qvalue (qValue).
func mediaRange(r string) (typ string, q float64, ok bool) {
	typ, params := r, ""
	if i := strings.IndexByte(r, ';'); i >= 0 {
		typ, params = r[:i], r[i+1:]
	}
	typ = strings.ToLower(strings.TrimSpace(typ))
	if main, sub, found := strings.Cut(typ, "/"); !found || main == "" || sub == "" || strings.ContainsAny(typ, " \t") {
		return "", 0, false
	}
	q = 1
	for p := range fields(params, ';') {
		name, value, _ := strings.Cut(p, "=")
		if strings.ToLower(strings.TrimSpace(name)) != "q" {
			continue
		}
		if q, ok = qValue(strings.Trim(strings.TrimSpace(value), `"`)); !ok { // quoted, as a parameter may be
			return "", 0, false
		}
		break
	}
	return typ, q, true
}

// fields are s's parts between seps, a sep inside a quoted string (a
// parameter's value, with its backslash escapes) ending none.
func fields(s string, sep byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		start, quoted := 0, false
		for i := 0; i < len(s); i++ {
			switch c := s[i]; {
			case quoted && c == '\\':
				i++ // the escaped byte
			case c == '"':
				quoted = !quoted
			case c == sep && !quoted:
				if !yield(s[start:i]) {
					return
				}
				start = i + 1
			}
		}
		yield(s[start:])
	}
}

// qValue reads a weight as RFC 9110 (12.4.2) writes one: "0" or "1", to
// at most three decimals, and none past 1. ParseFloat would read NaN,
// 0x1p-1 and 5e-1 too, which no client means.
func qValue(s string) (float64, bool) {
	whole, frac, _ := strings.Cut(s, ".")
	if (whole != "0" && whole != "1") || len(frac) > 3 {
		return 0, false
	}
	for _, c := range frac {
		if c < '0' || c > '9' || whole == "1" && c != '0' {
			return 0, false
		}
	}
	q, err := strconv.ParseFloat(s, 64)
	return q, err == nil
}

// specificity is how closely a range matches a type: 2 for the type
// itself, 1 for type/*, 0 for */*, -1 for no match.
func specificity(rng, typ string) int {
	switch main, _, _ := strings.Cut(typ, "/"); rng {
	case typ:
		return 2
	case main + "/*":
		return 1
	case "*/*":
		return 0
	}
	return -1
}

// acceptOf is a request's Accept, its field lines one list, as RFC 9110
// (5.3) has a list field's lines read.
func acceptOf(h http.Header) string {
	switch lines := h["Accept"]; len(lines) {
	case 0:
		return ""
	case 1:
		return lines[0]
	default:
		return strings.Join(lines, ", ")
	}
}
