package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// readyWithin bounds an agent's start: Mastra loads for a few seconds on a
// busy machine.
const readyWithin = 90 * time.Second

// quiet keeps the frameworks from calling home: each reads one of these.
var quiet = []string{
	"COPILOTKIT_TELEMETRY_DISABLED=true",
	"DO_NOT_TRACK=1",
	"MASTRA_TELEMETRY_DISABLED=1",
	"SCARF_ANALYTICS=false",
}

// process is a program the lane started, with where its output goes.
type process struct {
	cmd  *exec.Cmd
	done chan struct{} // closed when it has exited
	err  error         // how it exited, once done
	log  string
}

// start runs cmd with its output in logPath, and its standard output
// also to also, if not nil (closed when it exits).
func start(cmd *exec.Cmd, logPath string, also io.WriteCloser) (*process, error) {
	out, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = out, out
	if also != nil {
		cmd.Stdout = io.MultiWriter(out, also)
	}
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, err
	}
	p := &process{cmd: cmd, done: make(chan struct{}), log: logPath}
	go func() {
		p.err = cmd.Wait()
		out.Close()
		if also != nil {
			also.Close()
		}
		close(p.done)
	}()
	return p, nil
}

// stop ends the process: SIGTERM, then SIGKILL if it has not gone in 5 s.
func (p *process) stop() {
	select {
	case <-p.done:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
}

// startAgent runs interop/agents/NAME/server.mjs on a free loopback port
// and waits until it answers HTTP.
func startAgent(ctx context.Context, dir string, a Agent, logDir string) (*process, string, error) {
	folder := filepath.Join(dir, "agents", a.Name)
	if _, err := os.Stat(filepath.Join(folder, "node_modules")); err != nil {
		return nil, "", fmt.Errorf("%s has no node_modules: run npm ci there (make interop does)", folder)
	}
	port, err := freePort()
	if err != nil {
		return nil, "", err
	}
	cmd := exec.Command("node", "server.mjs")
	cmd.Dir = folder
	cmd.Env = append(append(os.Environ(), quiet...), "PORT="+strconv.Itoa(port))
	p, err := start(cmd, filepath.Join(logDir, a.Name+".log"), nil)
	if err != nil {
		return nil, "", err
	}
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitReady(ctx, p, base+"/"); err != nil {
		p.stop()
		return nil, "", fmt.Errorf("%s: %w (its output: %s)", a.Name, err, p.log)
	}
	return p, base + a.Endpoint, nil
}

// freePort is a loopback port nothing listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls url until it answers anything at all, the process
// exits, or readyWithin passes.
func waitReady(ctx context.Context, p *process, url string) error {
	ctx, cancel := context.WithTimeout(ctx, readyWithin)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("exited before it answered: %v", p.err)
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("no answer within %s", readyWithin)
			}
			return ctx.Err()
		case <-tick.C:
		}
	}
}
