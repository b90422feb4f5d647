package server

import "testing"

// Accept is read as the official encoders read it, q-values and
// specificity deciding, but the binary transport only when named.
func TestNegotiate(t *testing.T) {
	for _, tt := range []struct {
		accept   string
		binaryOK bool
		want     wire
		ok       bool
	}{
		{"", true, sse, true},
		{"*/*", true, sse, true},
		{"text/event-stream", true, sse, true},
		{"application/vnd.ag-ui.event+proto", true, binary, true},
		{"APPLICATION/VND.AG-UI.EVENT+PROTO", true, binary, true},
		{"application/vnd.ag-ui.event+proto, text/event-stream", true, binary, true},
		{"text/event-stream, application/vnd.ag-ui.event+proto", true, sse, true},
		{"text/event-stream;q=0.5, application/vnd.ag-ui.event+proto", true, binary, true},
		{"application/vnd.ag-ui.event+proto;q=0.4, text/event-stream;q=0.5", true, sse, true},
		{"application/vnd.ag-ui.event+proto, */*", true, binary, true},
		{"*/*, application/vnd.ag-ui.event+proto", true, binary, true}, // the named range is the more specific
		{"*/*;q=0.9, application/vnd.ag-ui.event+proto;q=0.1", true, sse, true},
		{"application/*", true, sse, false}, // reaches binary only through a wildcard
		{"application/json", true, sse, false},
		{"text/*", true, sse, true},
		{"text/event-stream;q=0", true, sse, false},
		{"text/event-stream;q=0, */*", true, sse, false}, // the more specific range says no
		{"application/vnd.ag-ui.event+proto;q=0, */*", true, sse, true},
		{"application/vnd.ag-ui.event+proto", false, sse, false}, // a script binary cannot carry
		{"application/vnd.ag-ui.event+proto, text/event-stream;q=0.1", false, sse, true},
		{"text/event-stream;q=nope", true, sse, false},    // a range that is not one counts for nothing
		{"text/event-stream;q=nan, */*", true, sse, true}, // NaN is no q-value: the range counts for nothing
		{"application/vnd.ag-ui.event+proto;q=NaN, text/event-stream;q=0.1", true, sse, true},
		{"garbage", true, sse, false},
		{"text/event-stream; charset=utf-8; q=0.8", true, sse, true},
		{`application/vnd.ag-ui.event+proto;q="0.9"`, true, binary, true},
		// A q is a qvalue as RFC 9110 writes one, or the range counts for nothing.
		{"application/vnd.ag-ui.event+proto;q=0x1p-1, text/event-stream;q=0.1", true, sse, true},
		{"application/vnd.ag-ui.event+proto;q=5e-1, text/event-stream;q=0.1", true, sse, true},
		{"application/vnd.ag-ui.event+proto;q=0.5000, text/event-stream;q=0.1", true, sse, true},
		{"application/vnd.ag-ui.event+proto;q=1.001, text/event-stream;q=0.1", true, sse, true},
		{"application/vnd.ag-ui.event+proto;q=2", true, sse, false},
		{"application/vnd.ag-ui.event+proto;q=0.5, text/event-stream;q=0.25", true, binary, true},
		{"application/vnd.ag-ui.event+proto;q=1.000, text/event-stream;q=0.", true, binary, true},
		// A quoted parameter may hold a comma or a semicolon (RFC 9110,
		// 5.6.6): it ends no range and no parameter.
		{`text/event-stream;foo="a,b";q=0`, true, sse, false},
		{`text/event-stream;foo="a;q=1";q=0`, true, sse, false},
		{`text/event-stream;foo="a\",b";q=0, application/vnd.ag-ui.event+proto`, true, binary, true},
	} {
		got, ok := negotiate(tt.accept).pick(tt.binaryOK)
		if got != tt.want || ok != tt.ok {
			t.Errorf("Accept %q (binary %v): %v %v, want %v %v", tt.accept, tt.binaryOK, got, ok, tt.want, tt.ok)
		}
	}
}

// The headers AG-UI's clients send are read without parsing them: as the
// parse reads them.
func TestNegotiateShortcutsAgreeWithTheParse(t *testing.T) {
	for _, accept := range []string{"text/event-stream", "application/vnd.ag-ui.event+proto"} {
		if got, want := negotiate(accept), negotiate(accept+";q=1"); got != want {
			t.Errorf("Accept %q: %+v, parsed %+v", accept, got, want)
		}
	}
}
