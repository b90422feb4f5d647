// Package e2e drives the real server binary and the real wasm in headless
// Debian Chromium, at 1280x800 and 390x844.
package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The suite's shared pieces, set up once by TestMain.
var (
	baseURL   string          // the server, on a free loopback port
	webDir    string          // the web folder it serves, with the wasm just built
	serverBin string          // the server binary, for tests that start one of their own
	serverLog *logBook        // its JSON request log
	browser   context.Context // one headless Chromium; each test gets its own browser context
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		fmt.Println("e2e: the browser suite is skipped with -short; make test (or make e2e) runs it")
		os.Exit(0)
	}
	code, err := run(m)
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		code = 1
	}
	os.Exit(code)
}

func run(m *testing.M) (int, error) {
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if _, err := os.Stat(chromium); err != nil {
		return 1, fmt.Errorf("Chromium not found at %s: install Debian's chromium (`make chromium` does, as root) or set CHROMIUM", chromium)
	}

	work, err := os.MkdirTemp("", "agent-analysis-e2e-")
	if err != nil {
		return 1, err
	}
	defer os.RemoveAll(work)

	web, bin, err := build(work)
	if err != nil {
		return 1, err
	}
	webDir, serverBin = web, bin
	server, err := startServer(bin, "-web", web)
	if err != nil {
		return 1, err
	}
	defer server.stop()
	baseURL, serverLog = server.url, server.log

	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(filepath.Join(work, "profile")),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-quic", true),
	)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(alloc)
	defer cancelBrowser()
	if err := chromedp.Do(ctx); err != nil { // start the browser now
		return 1, fmt.Errorf("starting Chromium: %w", err)
	}
	browser = ctx
	return m.Run(), nil
}

// build compiles the two wasm pages into a copy of web/ and the server binary, all
// fresh: the test cache knows nothing of them.
func build(work string) (web, bin string, err error) {
	web = filepath.Join(work, "web")
	if err := os.CopyFS(web, os.DirFS("../web")); err != nil {
		return "", "", err
	}
	// Fresh builds only: a copied .wasm.br would be stale next to the new wasm.
	for _, name := range []string{"app.wasm", "app.wasm.br", "inspector.wasm", "inspector.wasm.br"} {
		os.Remove(filepath.Join(web, name))
	}
	// As make wasm builds them: the pages get brotli, as in production.
	steps := []*exec.Cmd{
		exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(web, "app.wasm"), "../wasm"),
		exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(web, "inspector.wasm"), "../wasm/inspector"),
		exec.Command("go", "run", "../server/cmd/compress", "-q", brotliQuality(), filepath.Join(web, "app.wasm")),
		exec.Command("go", "run", "../server/cmd/compress", "-q", brotliQuality(), filepath.Join(web, "inspector.wasm")),
		exec.Command("go", "build", "-o", filepath.Join(work, "agent-analysis"), "../server/cmd/agent-analysis"),
	}
	steps[0].Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	steps[1].Env = steps[0].Env
	for _, cmd := range steps {
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
		}
	}
	return web, filepath.Join(work, "agent-analysis"), nil
}

// brotliQuality is make wasm's: BROTLI_QUALITY, else 9.
func brotliQuality() string {
	if q := os.Getenv("BROTLI_QUALITY"); q != "" {
		return q
	}
	return "9"
}

type serverProcess struct {
	cmd  *exec.Cmd
	done chan error
	url  string   // http://127.0.0.1:port
	log  *logBook // its JSON request log
}

// startServer runs the binary on a free loopback port and reads its log.
func startServer(bin string, args ...string) (*serverProcess, error) {
	cmd := exec.Command(bin, append([]string{"serve", "-addr", "127.0.0.1:0", "-log-json"}, args...)...)
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = dieWithUs()
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &serverProcess{cmd: cmd, done: make(chan error, 1), log: &logBook{}}
	listening := make(chan string, 1)
	go func() {
		p.log.read(out, listening)
		p.done <- cmd.Wait()
	}()
	select {
	case url := <-listening:
		p.url = strings.TrimSuffix(url, "/agent-analysis")
		return p, nil
	case err := <-p.done:
		return nil, fmt.Errorf("server exited: %v", err)
	case <-time.After(20 * time.Second):
		p.stop()
		return nil, errors.New("server did not start")
	}
}

// stop shuts the server down as SIGTERM does in production.
func (p *serverProcess) stop() {
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
	}
}

// logLine is what the tests read of a server log line: the one a stream
// request logs when its stream ends says how it ended.
type logLine struct {
	Msg      string `json:"msg"`
	URL      string `json:"url"`
	Path     string `json:"path"`
	ThreadID string `json:"threadId"`
	Scenario string `json:"scenario"`
	End      string `json:"end"`    // completed, client-gone, shutdown, ...
	Events   int    `json:"events"` // sent before it ended
	// Continuation is the script's continuation a resume played; "" for
	// a fresh run.
	Continuation string `json:"continuation"`
}

// logBook is the server's log, as decoded lines.
type logBook struct {
	mu    sync.Mutex
	lines []logLine
}

func (b *logBook) read(r io.Reader, listening chan<- string) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var line logLine
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		if line.Msg == "listening" {
			listening <- line.URL
		}
		b.mu.Lock()
		b.lines = append(b.lines, line)
		b.mu.Unlock()
	}
}

// streams returns the finished stream requests of one thread.
func (b *logBook) streams(thread string) []logLine {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []logLine
	for _, l := range b.lines {
		if l.Path == "/api/agent-analysis" && l.ThreadID == thread {
			out = append(out, l)
		}
	}
	return out
}
