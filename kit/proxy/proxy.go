// Package proxy is a validating HTTP proxy between a real AG-UI client and
// a real agent: every request goes to the one upstream fixed at start, the
// upstream's answer goes back unchanged and unbuffered, and as the traffic
// passes the AG-UI 1.x consumer engine (agui) judges it. Each run
// (a POST) gets a verdict once its stream has ended (Run): the input the
// client sent, read exactly (agui.ReadInput), its resume list checked
// against the interrupts the thread's previous run left open
// (agui.Pending.Check), and the stream, with the transport checks
// `check -url` makes (status, content type, SSE framing, the engine's
// event bound, an end without a terminal event).
//
// The proxy only reports. Passing bytes never waits for judging: the
// handler copies each read of the upstream's body to the client and flushes
// it, and hands a copy to a judge goroutine through a bounded backlog
// (MaxBacklog); a judge that falls that far behind stops judging, with a
// report, and the bytes go on. Judging never alters or stops the bytes,
// and a run's verdict comes after its stream has reached the client.
//
// There is no strict mode that would end a broken stream with RUN_ERROR,
// on purpose. The judge is behind the bytes by design, so by the time it
// sees a violation the client has already received the event and maybe
// more; ending the stream at the violation would need the bytes to wait
// for judging, the one thing a proxy in front of a real client must not
// do. The RUN_ERROR itself would be the proxy's invention: the client
// under test would be tested against the proxy, not the agent, and an
// event after the fault may itself break a rule (nothing but RUN_STARTED
// may follow a RUN_ERROR). A client's handling of broken streams is better
// tested against `serve`, whose fault scripts are exact and repeatable.
//
// Forwarding: the request's method, headers (hop-by-hop ones aside, so
// Authorization and cookies pass) and body go to the upstream URL, its
// path joined with the request's: a request for "/" goes to the
// upstream's own path, one for "/x" to the upstream's path + "/x"; the
// query is the upstream's, then the request's. The scheme and host are
// always the upstream's; the upstream URL's user info, if it has any, goes
// as Basic auth on a request without an Authorization of its own, as
// http.Client sends it. A 1xx answer (103 Early Hints) goes to the client
// as it comes, but to an HTTP/1.0 client. Redirects are passed to the
// client, not followed;
// an upstream that cannot be reached, or answers a status below 100, is a
// 502 problem+json from the proxy;
// an upstream that breaks mid-stream breaks the client's stream too. No
// header, query or body is ever logged: a run is reported by its thread
// and run ids and its path.
package proxy

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rs/cors"

	"github.com/agent-analysis/agent-analysis/kit/agent"
)

// Config is what a proxy is started with.
type Config struct {
	// Upstream is the agent's URL, http or https: every request goes
	// there (see the package doc for how paths join).
	Upstream string
	// Report is told of every run once it has been judged, from the
	// run's judge goroutine: calls may come at once.
	Report func(Run)
	// Log is a script file (.json or .jsonl) the runs are written to, as
	// record writes them: the first run to Log itself, the Nth to the
	// same name with "-N" before the extension, each once its stream has
	// ended; a run whose script would be over script.MaxBytes is not
	// written, and a note says so. "" writes nothing.
	Log string
	// CORSOrigins are the origins a browser client may call the proxy
	// from ("*" for any); the proxy then answers CORS itself, as serve
	// does, and drops the upstream's Access-Control-* headers. None: the
	// upstream's headers pass as they are.
	CORSOrigins []string
	// WriteTimeout bounds each write to the client: one that reads
	// nothing for this long is dropped, and its upstream request
	// cancelled. 0 means 10 s.
	WriteTimeout time.Duration
	// Threads is how many threads' open interrupts are remembered, for
	// checking the resume that answers them; the least recently used is
	// forgotten first. 0 means DefaultThreads.
	Threads int
	// Transport reaches the upstream; nil is a copy of
	// http.DefaultTransport that never asks for compression itself.
	Transport http.RoundTripper
	// Observer, when set, watches each run as it passes (the inspector).
	Observer Observer
}

// DefaultThreads is how many threads' interrupts a proxy remembers.
const DefaultThreads = 1000

// MaxBacklog bounds the bytes of one stream waiting to be judged: four
// of the engine's largest events. Past it the judge stops, with a report.
const MaxBacklog = 4 << 20

// MaxInput bounds the request body kept for judging; a longer one still
// passes whole, unjudged.
const MaxInput = 16 << 20

// ErrShutdown is the cause a server gives its requests' context when it
// shuts down: the runs it cuts are reported as interrupted, not as the
// client's leaving.
var ErrShutdown = errors.New("the proxy is shutting down")

// Proxy forwards to one upstream and judges what passes.
type Proxy struct {
	cfg       Config
	upstream  *url.URL
	transport http.RoundTripper
	handler   http.Handler
	threads   *threads
	judges    sync.WaitGroup
	work      chan *judging  // to an idle judge worker (judge.go)
	idle      atomic.Int32   // workers waiting for a run
	workers   sync.WaitGroup // every worker, idle or not
	stop      chan struct{}  // closed by Close: idle workers end
	closeOnce sync.Once

	mu      sync.Mutex
	summary Summary
	logged  int // runs written to the log
	closed  bool
}

// New starts a proxy to cfg.Upstream.
func New(cfg Config) (*Proxy, error) {
	u, err := url.Parse(cfg.Upstream)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Fragment != "" {
		return nil, fmt.Errorf("the upstream %q is not an http:// or https:// URL", agent.RedactURL(cfg.Upstream))
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.Threads <= 0 {
		cfg.Threads = DefaultThreads
	}
	if cfg.Report == nil {
		cfg.Report = func(Run) {}
	}
	p := &Proxy{cfg: cfg, upstream: u, transport: cfg.Transport, threads: newThreads(cfg.Threads), work: make(chan *judging), stop: make(chan struct{})}
	if p.transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.DisableCompression = true // the client's Accept-Encoding, or none: the bytes are the upstream's
		// Every request goes to the one upstream: all the idle connections
		// kept may be to it. (The default keeps 2: a third client at once
		// would open and close a connection per request.)
		t.MaxIdleConnsPerHost = t.MaxIdleConns
		p.transport = t
	}
	p.handler = http.HandlerFunc(p.forward)
	if len(cfg.CORSOrigins) > 0 {
		c := cors.New(cors.Options{
			AllowedOrigins: cfg.CORSOrigins,
			AllowedMethods: []string{http.MethodPost, http.MethodGet},
			AllowedHeaders: []string{"*"}, // an agent's own too: Authorization, an API key
			MaxAge:         600,
		})
		p.handler = c.Handler(p.handler)
	}
	return p, nil
}

// ServeHTTP forwards one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A write the CORS layer makes (a preflight's answer) is bounded too;
	// forward sets a fresh deadline before each of its own.
	setWriteDeadline(w, p.cfg.WriteTimeout)
	p.handler.ServeHTTP(w, r)
}

// Summary is every run judged so far.
func (p *Proxy) Summary() Summary {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.summary
	s.Rules = make(map[string]int, len(p.summary.Rules))
	for k, v := range p.summary.Rules {
		s.Rules[k] = v
	}
	return s
}

// Close waits for every run's judge to finish (their streams must have
// ended: shut the server down first) and closes idle upstream connections.
func (p *Proxy) Close() {
	p.judges.Wait()
	p.closeOnce.Do(func() { close(p.stop) })
	p.workers.Wait()
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	if t, ok := p.transport.(interface{ CloseIdleConnections() }); ok {
		t.CloseIdleConnections()
	}
}

// target is where a request goes: the upstream, its path joined with the
// request's.
func (p *Proxy) target(r *http.Request) *url.URL {
	return p.join(r.URL.EscapedPath(), r.URL.RawQuery)
}

// join is the upstream URL with path (escaped) and query added.
func (p *Proxy) join(path, query string) *url.URL {
	u := *p.upstream
	if path != "/" && path != "" {
		base := strings.TrimSuffix(p.upstream.EscapedPath(), "/")
		joined := base + "/" + strings.TrimPrefix(path, "/")
		if unescaped, err := url.PathUnescape(joined); err == nil {
			u.Path, u.RawPath = unescaped, joined
		}
	}
	switch {
	case u.RawQuery == "":
		u.RawQuery = query
	case query != "":
		u.RawQuery += "&" + query
	}
	return &u
}

// hopByHop are the headers of one connection, not of the message
// (RFC 9110, 7.6.1): never forwarded, either way.
var hopByHop = []string{
	"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade",
}

// endToEnd is h without its hop-by-hop headers (addEndToEnd).
func endToEnd(h http.Header) http.Header {
	out := make(http.Header, len(h))
	addEndToEnd(out, h, nil)
	return out
}

// addEndToEnd adds src's headers to dst, but for its hop-by-hop ones,
// those its Connection header names, and those skip, if set, refuses. The
// lists of values are shared, clipped: a value added to one later makes
// a list of its own, so src stays as it came.
func addEndToEnd(dst, src http.Header, skip func(name string) bool) {
	connection := src["Connection"]
	for name, values := range src {
		if slices.Contains(hopByHop, name) || names(connection, name) || (skip != nil && skip(name)) {
			continue
		}
		if have, ok := dst[name]; ok {
			dst[name] = append(have, values...)
		} else {
			dst[name] = slices.Clip(values)
		}
	}
}

// names says whether a Connection header's values name the header name
// (canonical).
func names(connection []string, name string) bool {
	for _, v := range connection {
		for named := range strings.SplitSeq(v, ",") {
			if textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(named)) == name {
				return true
			}
		}
	}
	return false
}

// setWriteDeadline gives the next write to the client d.
func setWriteDeadline(w http.ResponseWriter, d time.Duration) {
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(d))
}

// cause is why a request's context ended: the server's shutdown, or the
// client's leaving.
func cause(ctx context.Context) error {
	if c := context.Cause(ctx); c != nil {
		return c
	}
	return ctx.Err()
}
