package mailer

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
)

// Past MaxSMTPConnections open sessions a new connection is told 421 and
// closed at once; when a session ends its place is free again.
func TestSMTPConnectionCap(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	const max = 3
	srv := tm.SMTPServer()
	go srv.Serve(newLimitListener(l, max, "rw.test"))
	defer srv.Close()
	greet := func() (net.Conn, string) {
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		return c, line
	}
	var held []net.Conn
	for i := 0; i < max; i++ {
		c, line := greet()
		if !strings.HasPrefix(line, "220") {
			t.Fatalf("session %d greeted %q", i, line)
		}
		held = append(held, c)
	}
	c, line := greet()
	if !strings.HasPrefix(line, "421") {
		t.Errorf("past the cap: %q, want 421", line)
	}
	c.Close()
	held[0].Close()
	var again string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		c, again = greet()
		c.Close()
		if strings.HasPrefix(again, "220") {
			break
		}
	}
	if !strings.HasPrefix(again, "220") {
		t.Errorf("after a session ended: %q, want 220", again)
	}
	for _, c := range held[1:] {
		c.Close()
	}
}
