package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"strings"
	"sync"
	"time"
)

// forward sends one request to the upstream and its answer back, byte for
// byte, flushing each read as it arrives; a POST is judged on the way
// (judging), never waited for.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	// The upstream may answer before it has read the whole body: the
	// answer's headers then go to the client while the transport still
	// reads the body, which net/http would otherwise discard from under it.
	_ = http.NewResponseController(w).EnableFullDuplex()
	out := &http.Request{
		Method: r.Method, URL: p.target(r), Header: endToEnd(r.Header),
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1, ContentLength: r.ContentLength,
	}
	if _, ok := out.Header["User-Agent"]; !ok {
		out.Header.Set("User-Agent", "") // the client's absence of one, not Go's
	}
	if u := p.upstream.User; u != nil && r.Header.Get("Authorization") == "" {
		// As http.Client sends a URL's user info (check -url's): the
		// transport alone would drop it.
		password, _ := u.Password()
		out.SetBasicAuth(u.Username(), password)
	}
	var client *clientBody
	if r.ContentLength != 0 {
		client = &clientBody{ReadCloser: r.Body}
		out.Body = client
	}
	var j *judging
	if r.Method == http.MethodPost {
		j = p.startJudging(r, out.Body, start)
		if out.Body != nil {
			out.Body = j.body
		}
	}
	var skip func(string) bool
	if len(p.cfg.CORSOrigins) > 0 {
		skip = func(name string) bool {
			return strings.HasPrefix(name, "Access-Control-") // the proxy's CORS layer answers for it
		}
	}
	ctx, stop := p.informational(w, r, skip)
	out = out.WithContext(ctx)

	body, err := readAhead(out.Body, r.ContentLength)
	if err != nil {
		// The client's body broke off: nothing goes to the agent.
		if r.Context().Err() == nil {
			writeProblem(w, p.cfg.WriteTimeout, http.StatusBadRequest, "Bad Request", "the request's body could not be read: "+err.Error())
		}
		j.answered(answer{err: err, ctx: ctxCause(r), at: time.Now(), broken: true})
		j.ended(outcome{read: err, at: time.Now()})
		return
	}
	out.Body = body
	resp, err := p.transport.RoundTrip(out)
	stop()
	if err == nil && resp.StatusCode < 100 {
		// Go's client reads any three digits as a status; a server can
		// send on only 100 to 999.
		resp.Body.Close()
		err = fmt.Errorf("%w %03d, which HTTP does not have", errNoStatus, resp.StatusCode)
	}
	if err != nil {
		a := answer{err: err, ctx: ctxCause(r), at: time.Now()}
		if broken := client.broken(); broken != nil {
			// The client's body broke off on its way: the transport
			// dropped the agent's request for it.
			a.err, a.broken, a.sent = broken, true, true
		}
		if a.ctx == nil {
			switch {
			case a.broken:
				writeProblem(w, p.cfg.WriteTimeout, http.StatusBadRequest, "Bad Request", "the request's body could not be read: "+a.err.Error())
			case errors.Is(err, errNoStatus):
				writeProblem(w, p.cfg.WriteTimeout, http.StatusBadGateway, "Bad Gateway", err.Error())
			default:
				writeProblem(w, p.cfg.WriteTimeout, http.StatusBadGateway, "Bad Gateway", "the agent could not be reached: "+err.Error())
			}
		}
		j.answered(a)
		j.ended(outcome{read: err, at: time.Now()})
		return
	}
	defer resp.Body.Close()
	addEndToEnd(w.Header(), resp.Header, skip)
	if _, ok := w.Header()["Content-Type"]; !ok {
		// None came (or the agent's Connection named it): the client gets
		// none, not one net/http sniffs from the first bytes.
		w.Header()["Content-Type"] = nil
	}
	// The judge reads the upstream's headers as the client gets them, a
	// map of their own: nothing changes them (addEndToEnd shares their
	// values, clipped).
	j.answered(answer{status: resp.StatusCode, header: endToEnd(resp.Header), at: time.Now()})

	rc := http.NewResponseController(w)
	o := outcome{lastArrival: time.Now()}
	setWriteDeadline(w, p.cfg.WriteTimeout)
	w.WriteHeader(resp.StatusCode)
	if resp.ContentLength < 0 {
		// A stream, its length unknown: the client sees it open now,
		// before its first event. A body of known length was whole before
		// the upstream answered: its headers go out with its first bytes,
		// in one write rather than two.
		o.write = rc.Flush()
	}
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	for o.write == nil {
		n, err := resp.Body.Read(*buf)
		if n > 0 {
			now := time.Now()
			o.longestGap = max(o.longestGap, now.Sub(o.lastArrival))
			o.lastArrival = now
			o.bytes += int64(n)
			j.passed((*buf)[:n], now)
			if err := rc.SetWriteDeadline(now.Add(p.cfg.WriteTimeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
				o.write = err
				break
			}
			if _, o.write = w.Write((*buf)[:n]); o.write == nil {
				o.write = rc.Flush()
			}
		}
		if err != nil {
			o.read = err
			break
		}
	}
	if o.write == nil {
		// The chunked body's end is written after the handler returns,
		// maybe long after the last write: it gets a deadline of its own.
		setWriteDeadline(w, p.cfg.WriteTimeout)
	}
	o.at = time.Now()
	o.longestGap = max(o.longestGap, o.at.Sub(o.lastArrival))
	if o.write != nil || !errors.Is(o.read, io.EOF) {
		// A client that leaves once every byte reached it (as one that
		// closes on RUN_FINISHED does) cancelled nothing.
		o.ctx = ctxCause(r)
		// An agent that answered before it had the whole body: the
		// transport drops its request when the client's body breaks off,
		// and so cuts the answer.
		o.body = client.broken()
	}
	j.ended(o)
	if o.write == nil && o.ctx == nil && !errors.Is(o.read, io.EOF) {
		// The upstream broke, or the client's body did: the client's
		// stream breaks too, rather than end as if whole.
		panic(http.ErrAbortHandler)
	}
}

// informational passes the upstream's 1xx answers (103 Early Hints) to
// the client as they come, while the round trip waits for the final
// answer; stop ends that, before the handler writes again.
func (p *Proxy) informational(w http.ResponseWriter, r *http.Request, skip func(string) bool) (ctx context.Context, stop func()) {
	var mu sync.Mutex
	stopped := false
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, header textproto.MIMEHeader) error {
		mu.Lock()
		defer mu.Unlock()
		// Never a 101 (the transport reads it as final anyway), and never
		// to an HTTP/1.0 client (RFC 9110, 15.2).
		if stopped || code == http.StatusSwitchingProtocols || !r.ProtoAtLeast(1, 1) {
			return nil
		}
		// net/http writes a 1xx with the header map the final answer
		// uses, which may hold the CORS layer's headers already: the
		// 1xx's own go alone, then the map is as it was.
		h := w.Header()
		kept := h.Clone()
		clear(h)
		addEndToEnd(h, http.Header(header), skip)
		setWriteDeadline(w, p.cfg.WriteTimeout)
		w.WriteHeader(code)
		clear(h)
		maps.Copy(h, kept)
		return nil
	}}
	return httptrace.WithClientTrace(r.Context(), trace), func() {
		mu.Lock()
		stopped = true
		mu.Unlock()
	}
}

// readAhead is a small body of announced length, read whole before it
// goes upstream, as a buffering proxy (nginx) reads it: the transport then
// writes it in one write with the request's headers, where a body it must
// read as it goes follows them in a write of its own (two packets, and two
// reads for the agent). Clients send such a body with its headers; one
// that stalls is waited for until it sends the rest, leaves or the proxy
// stops. A larger body, or one of unknown length, goes on as it comes. An
// error is the client's body breaking off.
func readAhead(body io.ReadCloser, length int64) (io.ReadCloser, error) {
	if body == nil || length <= 0 || length > maxReadAhead {
		return body, nil
	}
	data := make([]byte, 0, length+1) // and a byte more, to meet the end
	for {
		n, err := body.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		switch {
		case err == io.EOF:
			return io.NopCloser(bytes.NewReader(data)), nil // in memory: see net/http's isKnownInMemoryReader
		case err != nil:
			return nil, err
		case len(data) == cap(data): // longer than announced, which net/http never lets through
			return nil, fmt.Errorf("more than the %d bytes announced", length)
		}
	}
}

// errNoStatus begins the error of an answer whose status HTTP does not
// have: the client gets 502, as for an agent that could not be reached.
var errNoStatus = errors.New("the agent answered status")

// maxReadAhead bounds the body readAhead holds: a RunAgentInput some turns
// into a chat is a few kilobytes.
const maxReadAhead = 64 << 10

// buffers hold a stream's reads on their way through, between streams:
// each is 32 KiB, and what is read is copied before the next read (the
// client's connection and the judge's backlog keep nothing of it).
var buffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// ctxCause is why the request's context ended, or nil while it has not.
func ctxCause(r *http.Request) error {
	if r.Context().Err() == nil {
		return nil
	}
	return cause(r.Context())
}

// writeProblem answers with an RFC 9457 problem, as serve does.
func writeProblem(w http.ResponseWriter, d time.Duration, status int, title, detail string) {
	body, _ := json.Marshal(struct {
		Type   string `json:"type"`
		Title  string `json:"title"`
		Status int    `json:"status"`
		Detail string `json:"detail"`
	}{"about:blank", title, status, detail})
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	setWriteDeadline(w, d)
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
