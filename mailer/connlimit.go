package mailer

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// Limits of the subscribe-mail receiver's sessions, so one client cannot
// hold it for everyone else (as Postfix's per-client connection limits):
//   - MaxSMTPConnections open sessions in all; a connection past it is
//     answered "421 too many connections" and closed;
//   - MaxSMTPPerPeer open sessions per peer (an IPv4 address, or an IPv6
//     /64: one host's share); past it the same 421;
//   - SMTPIdleTimeout for each command or line (go-smtp's ReadTimeout and
//     WriteTimeout): a session that sends nothing for that long is told
//     "421 idle timeout" and closed;
//   - SMTPSessionTimeout for a whole session, however busy: a client that
//     drips one command just inside the idle timeout is cut off at it.
const (
	MaxSMTPConnections = 64
	MaxSMTPPerPeer     = 4
	SMTPIdleTimeout    = 30 * time.Second
	SMTPSessionTimeout = 5 * time.Minute
)

// sessionLimits are the limits a limitListener applies.
type sessionLimits struct {
	max, perPeer int
	lifetime     time.Duration // 0: none
}

// limitListener hands out at most max connections at a time, and at most
// perPeer per peer; the others are told 421 and closed at once. Each
// connection it hands out ends at its lifetime.
type limitListener struct {
	net.Listener
	lim      sessionLimits
	hostname string

	mu    sync.Mutex
	open  int
	peers map[netip.Prefix]int
}

func newLimitListener(l net.Listener, lim sessionLimits, hostname string) *limitListener {
	return &limitListener{Listener: l, lim: lim, hostname: hostname, peers: map[netip.Prefix]int{}}
}

// peerOf is the share a connection counts against: its IPv4 address, or
// the /64 of its IPv6 address (a host is given a /64, so counting single
// IPv6 addresses would not bound one host).
func peerOf(c net.Conn) netip.Prefix {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return netip.Prefix{} // not an IP peer: one shared share
	}
	ip := ap.Addr().Unmap()
	if ip.Is4() {
		return netip.PrefixFrom(ip, 32)
	}
	p, _ := ip.Prefix(64)
	return p
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		peer := peerOf(c)
		l.mu.Lock()
		if l.open >= l.lim.max || l.peers[peer] >= l.lim.perPeer {
			l.mu.Unlock()
			go refuse(c, l.hostname)
			continue
		}
		l.open++
		l.peers[peer]++
		l.mu.Unlock()
		cc := &countedConn{Conn: c, l: l, peer: peer}
		if l.lim.lifetime > 0 {
			cc.end = time.Now().Add(l.lim.lifetime)
			_ = c.SetDeadline(cc.end)
		}
		return cc, nil
	}
}

// refuse answers a connection past a limit with 421 (RFC 5321 §3.8: the
// service is not available, try again later) and closes it.
func refuse(c net.Conn, hostname string) {
	_ = c.SetWriteDeadline(time.Now().Add(5 * time.Second))
	_, _ = c.Write([]byte("421 4.7.0 " + hostname + " too many connections; try again later\r\n"))
	_ = c.Close()
}

// countedConn is a session's connection: closing it frees its places, and
// no deadline set on it (go-smtp sets one per command) reaches past the
// session's end.
type countedConn struct {
	net.Conn
	l    *limitListener
	peer netip.Prefix
	end  time.Time // zero: no session limit
	once sync.Once
}

func (c *countedConn) Close() error {
	c.once.Do(func() {
		c.l.mu.Lock()
		c.l.open--
		if c.l.peers[c.peer]--; c.l.peers[c.peer] <= 0 {
			delete(c.l.peers, c.peer)
		}
		c.l.mu.Unlock()
	})
	return c.Conn.Close()
}

// capped is t, or the session's end when t is later (or none).
func (c *countedConn) capped(t time.Time) time.Time {
	if !c.end.IsZero() && (t.IsZero() || t.After(c.end)) {
		return c.end
	}
	return t
}

func (c *countedConn) SetDeadline(t time.Time) error     { return c.Conn.SetDeadline(c.capped(t)) }
func (c *countedConn) SetReadDeadline(t time.Time) error { return c.Conn.SetReadDeadline(c.capped(t)) }
func (c *countedConn) SetWriteDeadline(t time.Time) error {
	return c.Conn.SetWriteDeadline(c.capped(t))
}
