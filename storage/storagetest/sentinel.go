package storagetest

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// SentinelMaster is the name under which a SentinelGroup's sentinels monitor its master.
const SentinelMaster = "reversi"

// SentinelGroup is a Redis Sentinel deployment of a test's own: a master, its replicas and three
// sentinels (quorum 2), every process on a free loopback port, started by StartSentinelGroup.
type SentinelGroup struct {
	// Nodes are the data servers: Nodes[0] was started as the master, the others as its
	// replicas. After a failover the roles are the sentinels' to say (Master).
	Nodes []*Server
	// Sentinels are the three sentinels' addresses (host:port).
	Sentinels []string

	t     testing.TB
	dirs  []string
	ports []int
	extra []string
}

// SentinelDownAfter is how long the group's sentinels wait for a master that does not answer
// before they call it down; a failover after a crash starts about that long after it.
const SentinelDownAfter = time.Second

// StartSentinelGroup starts a master with extra settings (its replica gets them too, so that
// a promoted replica keeps them), a replica of it, and three sentinels that monitor it, and
// returns once the replica is in sync and every sentinel knows the replica and the other
// sentinels (so that a failover can start at once). Every process is killed when the test
// ends. It skips the test when redis-server is not installed. The data servers keep nothing on
// disk unless extra says so.
func StartSentinelGroup(t testing.TB, extra ...string) *SentinelGroup {
	t.Helper()
	return StartSentinelGroupOf(t, 1, extra...)
}

// StartSentinelGroupOf is StartSentinelGroup with the given number of replicas (at least one).
func StartSentinelGroupOf(t testing.TB, replicas int, extra ...string) *SentinelGroup {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	g := &SentinelGroup{t: t, extra: append([]string{"--appendonly", "no", "--save", ""}, extra...)}
	for range 1 + max(replicas, 1) {
		g.dirs, g.ports = append(g.dirs, t.TempDir()), append(g.ports, FreePort(t))
	}
	// A master under min-replicas-to-write refuses writes until its replicas are in sync, not
	// the commands that start them.
	g.Nodes = append(g.Nodes, StartServer(t, g.ports[0], g.dirs[0], g.extra...))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for i := 1; i < len(g.ports); i++ {
		g.Nodes = append(g.Nodes, StartServer(t, g.ports[i], g.dirs[i], append(g.extra, "--replicaof", "127.0.0.1", strconv.Itoa(g.ports[0]))...))
		if err := g.WaitInSync(ctx, g.Nodes[i].Addr); err != nil {
			t.Fatalf("storagetest: replica never in sync: %v", err)
		}
	}
	for range 3 {
		g.Sentinels = append(g.Sentinels, g.startSentinel())
	}
	// A sentinel learns the replica from the master's INFO and the other sentinels from
	// their hellos: wait until each knows both, or a failover could find no replica, or no
	// majority to authorise it.
	for _, s := range g.Sentinels {
		err := poll(ctx, func() (bool, error) {
			c := redis.NewSentinelClient(&redis.Options{Addr: s})
			defer c.Close()
			reps, err := c.Replicas(ctx, SentinelMaster).Result()
			if err != nil {
				return false, nil
			}
			others, err := c.Sentinels(ctx, SentinelMaster).Result()
			return err == nil && len(reps) == len(g.Nodes)-1 && len(others) == 2, nil
		})
		if err != nil {
			t.Fatalf("storagetest: sentinel %s never saw the group: %v", s, err)
		}
	}
	return g
}

// startSentinel runs a sentinel monitoring the group's master and returns its address once
// it answers PING.
func (g *SentinelGroup) startSentinel() string {
	t := g.t
	t.Helper()
	port, dir := FreePort(t), t.TempDir()
	conf := filepath.Join(dir, "sentinel.conf") // the sentinel rewrites it: it must be its own
	text := fmt.Sprintf("port %[1]d\nbind 127.0.0.1\ndir %[2]s\n"+
		"sentinel monitor %[3]s 127.0.0.1 %[4]d 2\n"+
		"sentinel down-after-milliseconds %[3]s %[5]d\n"+
		"sentinel failover-timeout %[3]s 10000\n",
		port, dir, SentinelMaster, g.ports[0], SentinelDownAfter.Milliseconds())
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("redis-server", conf, "--sentinel")
	out, err := cmd.StdoutPipe()
	cmd.Stderr = cmd.Stdout
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log lockedLog
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			log.add(sc.Text())
		}
		_ = cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-done
	})
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = poll(ctx, func() (bool, error) {
		select {
		case <-done:
			return false, fmt.Errorf("sentinel exited:\n%s", log.String())
		default:
		}
		c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
		defer c.Close()
		err := c.Ping(ctx).Err()
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("storagetest: sentinel on %s: %v", addr, err)
	}
	return addr
}

// URL is the REDIS_URL of the group (storage.NewClient's Sentinel form), database db.
func (g *SentinelGroup) URL(db int) string {
	u := fmt.Sprintf("redis+sentinel://%s/%d?master_name=%s", g.Sentinels[0], db, SentinelMaster)
	for _, s := range g.Sentinels[1:] {
		u += "&addr=" + s
	}
	return u
}

// Master returns the address the first sentinel that answers gives for the master.
func (g *SentinelGroup) Master(ctx context.Context) (string, error) {
	var last error
	for _, s := range g.Sentinels {
		c := redis.NewSentinelClient(&redis.Options{Addr: s})
		hp, err := c.GetMasterAddrByName(ctx, SentinelMaster).Result()
		c.Close()
		if err == nil && len(hp) == 2 {
			return net.JoinHostPort(hp[0], hp[1]), nil
		}
		last = err
	}
	return "", fmt.Errorf("storagetest: no sentinel names the master: %w", last)
}

// Node returns the data server at addr (one of Nodes), nil when none is.
func (g *SentinelGroup) Node(addr string) *Server {
	for _, n := range g.Nodes {
		if n.Addr == addr {
			return n
		}
	}
	return nil
}

// Failover asks a sentinel for a failover (SENTINEL FAILOVER: the replica is promoted
// without waiting for it to agree with the master) and returns the new master's address once
// every sentinel names it and it serves writes as a master.
func (g *SentinelGroup) Failover(ctx context.Context) (string, error) {
	old, err := g.Master(ctx)
	if err != nil {
		return "", err
	}
	c := redis.NewSentinelClient(&redis.Options{Addr: g.Sentinels[0]})
	defer c.Close()
	if err := c.Failover(ctx, SentinelMaster).Err(); err != nil {
		return "", fmt.Errorf("storagetest: SENTINEL FAILOVER: %w", err)
	}
	return g.WaitNewMaster(ctx, old)
}

// WaitNewMaster waits until every sentinel names a master other than old and that server
// reports the master role, and returns its address.
func (g *SentinelGroup) WaitNewMaster(ctx context.Context, old string) (string, error) {
	var now string
	err := poll(ctx, func() (bool, error) {
		now = ""
		for _, s := range g.Sentinels {
			c := redis.NewSentinelClient(&redis.Options{Addr: s})
			hp, err := c.GetMasterAddrByName(ctx, SentinelMaster).Result()
			c.Close()
			if err != nil || len(hp) != 2 {
				return false, nil
			}
			a := net.JoinHostPort(hp[0], hp[1])
			if a == old || now != "" && a != now {
				return false, nil
			}
			now = a
		}
		return role(ctx, now) == "master", nil
	})
	if err != nil {
		return "", fmt.Errorf("storagetest: no new master after %s: %w", old, err)
	}
	return now, nil
}

// WaitInSync waits until the server at addr is a replica whose link to its master is up and
// has read everything that master has written.
func (g *SentinelGroup) WaitInSync(ctx context.Context, addr string) error {
	return poll(ctx, func() (bool, error) {
		c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
		defer c.Close()
		info, err := c.Info(ctx, "replication").Result()
		if err != nil {
			return false, nil
		}
		f := infoFields(info)
		if f["role"] != "slave" || f["master_link_status"] != "up" {
			return false, nil
		}
		m := redis.NewClient(&redis.Options{Addr: net.JoinHostPort(f["master_host"], f["master_port"]), MaxRetries: -1})
		defer m.Close()
		minfo, err := m.Info(ctx, "replication").Result()
		if err != nil {
			return false, nil
		}
		return infoFields(minfo)["master_repl_offset"] == f["slave_repl_offset"], nil
	})
}

// role is the replication role ("master", "slave") the server at addr reports, "" when it
// does not answer.
func role(ctx context.Context, addr string) string {
	c := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer c.Close()
	info, err := c.Info(ctx, "replication").Result()
	if err != nil {
		return ""
	}
	return infoFields(info)["role"]
}

// infoFields reads the key:value lines of an INFO reply.
func infoFields(info string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(info, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			out[k] = v
		}
	}
	return out
}

// poll calls cond every 20 ms until it reports true (nil), returns an error (that error), or
// ctx ends (ctx's error). It is for state of other processes that cannot signal the test; the
// context is its bounded patience.
func poll(ctx context.Context, cond func() (bool, error)) error {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		if ok, err := cond(); ok || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
		}
	}
}

// lockedLog collects a process's output lines for a failure message.
type lockedLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedLog) add(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(line + "\n")
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Pause stops the server's process (SIGSTOP) without killing it: it keeps its connections
// but reads nothing, so a replica falls behind its master. Resume lets it run again.
func (s *Server) Pause() { _ = s.cmd.Process.Signal(syscall.SIGSTOP) }

// Resume lets a paused server run again (SIGCONT).
func (s *Server) Resume() { _ = s.cmd.Process.Signal(syscall.SIGCONT) }

// Isolate cuts the replicas off the master without telling the sentinels: it pauses them (Pause)
// and has the master drop its replication links, so that every write the master acknowledges
// from now on reaches the master only, until Resume lets a replica reconnect. A failover in
// that time loses those writes, as one after a network partition does.
func (g *SentinelGroup) Isolate(ctx context.Context) error {
	master, err := g.Master(ctx)
	if err != nil {
		return err
	}
	for _, n := range g.Nodes {
		if n.Addr != master {
			n.Pause()
		}
	}
	c := redis.NewClient(&redis.Options{Addr: master, MaxRetries: -1})
	defer c.Close()
	if err := c.ClientKillByFilter(ctx, "TYPE", "replica").Err(); err != nil {
		return fmt.Errorf("storagetest: drop the replica's link: %w", err)
	}
	// The master counts the replica gone once its link is closed.
	return poll(ctx, func() (bool, error) {
		info, err := c.Info(ctx, "replication").Result()
		return err == nil && infoFields(info)["connected_slaves"] == "0", err
	})
}
