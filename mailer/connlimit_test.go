package mailer

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
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
	go srv.Serve(newLimitListener(l, sessionLimits{max: max, perPeer: max}, "rw.test"))
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

// runReceiver runs tm's Run (receiver and scheduler) until the test ends
// and returns the receiver's address once it listens.
func runReceiver(t *testing.T, tm *testMailer) (wait func() net.Addr) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- tm.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	})
	return func() net.Addr {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if a := tm.ReceiverAddr(); a != nil && tm.Ready() == nil {
				return a
			}
		}
		t.Fatalf("the receiver is not listening: %v", tm.Ready())
		return nil
	}
}

// greetFrom opens a session to addr from the loopback address from and
// reads its first line.
func greetFrom(t *testing.T, addr net.Addr, from string) (net.Conn, string) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, _ := bufio.NewReader(c).ReadString('\n')
	return c, line
}

// One peer holding idle sessions cannot lock out another: of
// MaxSMTPConnections sessions opened from 127.0.0.1 (the whole global
// cap), MaxSMTPPerPeer are greeted and the rest told 421; a sender at
// 127.0.0.2 (loopback too) is still greeted, and can subscribe.
func TestOnePeerCannotLockOutTheReceiver(t *testing.T) {
	tm := newTestMailer(t, func(c *Config) { c.SMTPAddr = "127.0.0.1:0"; c.Hostname = "rw.test" }, nil)
	addr := runReceiver(t, tm)()
	greeted := 0
	for i := 0; i < MaxSMTPConnections; i++ {
		c, line := greetFrom(t, addr, "127.0.0.1")
		defer c.Close()
		switch {
		case strings.HasPrefix(line, "220"):
			greeted++
		case !strings.HasPrefix(line, "421"):
			t.Fatalf("session %d from one peer: %q", i, line)
		}
	}
	if greeted != MaxSMTPPerPeer {
		t.Errorf("one peer was greeted %d times at once, want %d", greeted, MaxSMTPPerPeer)
	}
	c, line := greetFrom(t, addr, "127.0.0.2")
	c.Close()
	if !strings.HasPrefix(line, "220") {
		t.Fatalf("another peer while the first holds its sessions: %q, want 220", line)
	}
	if c, line := greetFrom(t, addr, "127.0.0.1"); !strings.HasPrefix(line, "421") { // its places are still taken
		t.Errorf("one more session from the first peer: %q, want 421", line)
		c.Close()
	}
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	conn, err := d.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	cl := smtp.NewClient(conn)
	defer cl.Close()
	msg := "From: Ann <ann@example.org>\r\nTo: " + subscribe + "\r\nSubject: watch\r\n\r\nparks contracts over $1 million\r\n"
	if err := cl.SendMail("ann@example.org", []string{subscribe}, strings.NewReader(msg)); err != nil {
		t.Fatalf("a subscribe mail from the other peer: %v", err)
	}
	tm.Flush()
	if got := tm.files("confirm."); len(got) != 1 {
		t.Errorf("confirmations after the other peer's request: %v", got)
	}
}

// A session ends at its lifetime however busy it keeps itself (a NOOP
// well within the idle timeout, again and again), and its place is free
// again after.
func TestSMTPSessionLifetime(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := tm.SMTPServer()
	go srv.Serve(newLimitListener(l, sessionLimits{max: 1, perPeer: 1, lifetime: 300 * time.Millisecond}, "rw.test"))
	defer srv.Close()
	c, line := greetFrom(t, l.Addr(), "127.0.0.1")
	defer c.Close()
	if !strings.HasPrefix(line, "220") {
		t.Fatalf("greeting %q", line)
	}
	r := bufio.NewReader(c)
	ended := false
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		_ = c.SetDeadline(time.Now().Add(5 * time.Second))
		if _, err := c.Write([]byte("NOOP\r\n")); err != nil {
			ended = true
			break
		}
		line, err := r.ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "250") {
			ended = true // 421 and closed
			break
		}
	}
	if !ended {
		t.Fatal("a busy session outlived its lifetime")
	}
	var again string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var c2 net.Conn
		c2, again = greetFrom(t, l.Addr(), "127.0.0.1")
		c2.Close()
		if strings.HasPrefix(again, "220") {
			break
		}
	}
	if !strings.HasPrefix(again, "220") {
		t.Errorf("after the session ended: %q, want 220", again)
	}
}

// A receiver port that is taken at start is listened on again, with
// backoff, until it is free: Ready reports the receiver down meanwhile,
// and up once it serves, without a restart.
func TestReceiverRetriesABusyPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tm := newTestMailer(t, func(c *Config) { c.SMTPAddr = busy.Addr().String() }, nil)
	tm.bindRetry = 10 * time.Millisecond
	wait := runReceiver(t, tm)
	for deadline := time.Now().Add(10 * time.Second); tm.Ready() == nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			busy.Close()
			t.Fatal("Ready does not report the taken port")
		}
	}
	if err := tm.Ready(); !strings.Contains(err.Error(), "cannot listen on "+busy.Addr().String()) {
		t.Errorf("Ready: %v", err)
	}
	busy.Close()
	addr := wait()
	if addr.String() != busy.Addr().String() {
		t.Errorf("listening on %s, want %s", addr, busy.Addr())
	}
	c, line := greetFrom(t, addr, "127.0.0.1")
	c.Close()
	if !strings.HasPrefix(line, "220") {
		t.Errorf("greeting once the port is free: %q", line)
	}
}
