// Command floor serves the floors bench/peer and bench/proxy measure
// against: the same traffic carried with as little work as Go allows, so
// that a figure can be read against what is possible on the machine at
// all, not only against a goal.
//
//	floor stream -from URL       net/http alone: every POST is read and
//	                             answered with the bytes of one normal
//	                             stream, fetched once from the server at URL
//	floor reverse -upstream URL  Go's own reverse proxy (httputil), flushing
//	                             every read and judging nothing
//	floor relay -upstream URL    a TCP relay: each connection's bytes copied
//	                             both ways by the kernel (splice), no HTTP
//	                             read at all
//
// Each prints "listening on http://ADDR" and serves until interrupted,
// its collector paced as what it stands beside: stream as agent-analysis
// serve (internal/gcpace), the proxies at Go's default, as agent-analysis
// proxy.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/signal"
	"strings"

	"github.com/agent-analysis/agent-analysis/bench/internal/load"
	"github.com/agent-analysis/agent-analysis/internal/gcpace"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: floor stream -from URL | reverse -upstream URL | relay -upstream URL")
		os.Exit(2)
	}
	flags := flag.NewFlagSet("floor "+os.Args[1], flag.ExitOnError)
	from := flags.String("from", "", "the server whose normal stream is served (stream)")
	upstream := flags.String("upstream", "", "where requests go (reverse, relay)")
	flags.Parse(os.Args[2:])
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err == nil {
		go func() {
			stop := make(chan os.Signal, 1)
			signal.Notify(stop, os.Interrupt)
			<-stop
			ln.Close()
		}()
		err = serve(os.Args[1], ln, *from, *upstream)
	}
	if err != nil && !errors.Is(err, net.ErrClosed) {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func serve(kind string, ln net.Listener, from, upstream string) error {
	switch kind {
	case "stream":
		gcpace.Set(os.Getenv) // as agent-analysis serve
		stream, err := load.Fetch(from)
		if err != nil {
			return err
		}
		fmt.Printf("listening on http://%s\n", ln.Addr())
		return http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("Cache-Control", "no-store")
			io.Copy(w, bytes.NewReader(stream))
		}))
	case "reverse":
		u, err := url.Parse(upstream)
		if err != nil {
			return err
		}
		proxy := httputil.NewSingleHostReverseProxy(u)
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = t.MaxIdleConns // as agent-analysis proxy keeps them
		proxy.Transport, proxy.FlushInterval = t, -1
		fmt.Printf("listening on http://%s\n", ln.Addr())
		return http.Serve(ln, proxy)
	case "relay":
		host := strings.TrimPrefix(upstream, "http://")
		fmt.Printf("listening on http://%s\n", ln.Addr())
		for {
			conn, err := ln.Accept()
			if err != nil {
				return err
			}
			go relay(conn.(*net.TCPConn), host)
		}
	}
	return fmt.Errorf("no floor %q: stream, reverse or relay", kind)
}

// relay copies one connection's bytes to the upstream and back until
// either side closes.
func relay(client *net.TCPConn, host string) {
	defer client.Close()
	conn, err := net.Dial("tcp", host)
	if err != nil {
		return
	}
	up := conn.(*net.TCPConn)
	defer up.Close()
	go func() {
		io.Copy(up, client)
		up.CloseWrite()
	}()
	io.Copy(client, up)
}
