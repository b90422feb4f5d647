package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/agent-analysis/agent-analysis/bench/internal/load"
	"github.com/agent-analysis/agent-analysis/server"
)

// Every floor carries the traffic it stands in for: a client gets from it
// the very bytes the server sends.
func TestFloorsCarryTheSameStream(t *testing.T) {
	ours := httptest.NewServer(server.New(server.Config{NoDelay: true}))
	defer ours.Close()
	defer http.DefaultClient.CloseIdleConnections()
	want, err := load.Fetch(ours.URL)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"stream", "reverse", "relay"} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		served := make(chan error, 1)
		go func() { served <- serve(kind, ln, ours.URL, ours.URL) }()
		got, err := load.Fetch("http://" + ln.Addr().String())
		http.DefaultClient.CloseIdleConnections()
		ln.Close()
		<-served
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %v\n%s\nwant\n%s", kind, err, got, want)
		}
	}
	if err := serve("nothing", nil, "", ""); err == nil {
		t.Error("an unknown floor was served")
	}
}
