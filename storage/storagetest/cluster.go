package storagetest

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// ClusterSlots is how many hash slots a Redis Cluster has.
const ClusterSlots = 16384

// ClusterOptions shape a Redis Cluster that StartCluster starts. The zero value is three
// masters without replicas that split the slots in three even ranges.
type ClusterOptions struct {
	Masters  int // masters; 0 means 3
	Replicas int // replicas of each master
	// NodeTimeout is the cluster-node-timeout: how long a node may not answer before the
	// others take it as failed (and a replica takes over); 0 means one second.
	NodeTimeout time.Duration
	// FullCoverage sets cluster-require-full-coverage: when true, every node refuses every
	// command (CLUSTERDOWN) while any slot has no live master. Redis's default is true; a
	// cluster the bot runs on should not have it, so here false is the default.
	FullCoverage bool
	// Owner returns the index (0 to Masters-1) of the master that serves slot; nil splits the
	// slots in even ranges, master 0 first.
	Owner func(slot int) int
	// Extra settings given to every node (see StartServer).
	Extra []string
}

// Cluster is a Redis Cluster of the test's own, started by StartCluster: Masters masters
// (Nodes[0:Masters]) each with Replicas replicas, the j-th replica of master i being
// Nodes[Masters+i*Replicas+j]. Its nodes are killed when the test ends.
type Cluster struct {
	Nodes []*ClusterNode
	opt   ClusterOptions
}

// ClusterNode is one node of a Cluster.
type ClusterNode struct {
	*Server
	ID     string // the node's cluster id
	Master int    // the index in Nodes of the master it replicates at the start; -1 for a master
}

// StartCluster starts a Redis Cluster (see ClusterOptions) of nodes that keep nothing on disk,
// each on a free loopback port, and returns once every node reports the cluster ok and every
// replica is in sync with its master. It skips the test when redis-server is not installed.
func StartCluster(t testing.TB, o ClusterOptions) *Cluster {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Skip("redis-server not installed")
	}
	if o.Masters <= 0 {
		o.Masters = 3
	}
	if o.NodeTimeout <= 0 {
		o.NodeTimeout = time.Second
	}
	if o.Owner == nil {
		n := o.Masters
		o.Owner = func(slot int) int { return slot * n / ClusterSlots }
	}
	c := &Cluster{opt: o}
	coverage := "no"
	if o.FullCoverage {
		coverage = "yes"
	}
	total := o.Masters * (1 + o.Replicas)
	for i := range total {
		dir := t.TempDir()
		args := append([]string{"--appendonly", "no", "--save", "", "--cluster-enabled", "yes",
			"--cluster-config-file", dir + "/nodes.conf",
			"--cluster-node-timeout", fmt.Sprint(o.NodeTimeout.Milliseconds()),
			"--cluster-require-full-coverage", coverage,
			// A replica's first sync starts at once, not after the default 5 s wait for others.
			"--repl-diskless-sync-delay", "0"}, o.Extra...)
		n := &ClusterNode{Server: StartServer(t, FreePort(t), dir, args...), Master: -1}
		if i >= o.Masters {
			n.Master = (i - o.Masters) / max(o.Replicas, 1)
		}
		c.Nodes = append(c.Nodes, n)
	}
	ctx := context.Background()
	clients := make([]*redis.Client, total)
	for i, n := range c.Nodes {
		clients[i] = redis.NewClient(&redis.Options{Addr: n.Addr, DialTimeout: time.Second})
		defer clients[i].Close()
		id, err := clients[i].Do(ctx, "CLUSTER", "MYID").Text()
		if err != nil {
			t.Fatalf("storagetest: CLUSTER MYID of %s: %v", n.Addr, err)
		}
		n.ID = id
	}
	// Slots to their masters, in ranges.
	ranges := make([][]any, o.Masters)
	for start := 0; start < ClusterSlots; {
		owner, end := o.Owner(start), start
		for end+1 < ClusterSlots && o.Owner(end+1) == owner {
			end++
		}
		if owner < 0 || owner >= o.Masters {
			t.Fatalf("storagetest: Owner(%d) = %d, want 0 to %d", start, owner, o.Masters-1)
		}
		ranges[owner] = append(ranges[owner], start, end)
		start = end + 1
	}
	for i, r := range ranges {
		if len(r) == 0 {
			continue
		}
		if err := clients[i].Do(ctx, append([]any{"CLUSTER", "ADDSLOTSRANGE"}, r...)...).Err(); err != nil {
			t.Fatalf("storagetest: ADDSLOTSRANGE on master %d: %v", i, err)
		}
	}
	for i, n := range c.Nodes[1:] {
		host, port, _ := strings.Cut(n.Addr, ":")
		if err := clients[0].Do(ctx, "CLUSTER", "MEET", host, port).Err(); err != nil {
			t.Fatalf("storagetest: CLUSTER MEET node %d: %v", i+1, err)
		}
	}
	start := time.Now()
	defer func() {
		t.Logf("storagetest: cluster of %d nodes ready in %v", total, time.Since(start).Round(time.Millisecond))
	}()
	deadline := start.Add(30 * time.Second)
	// Every node must know every other before a replica can name its master.
	for i, cl := range clients {
		c.await(t, deadline, fmt.Sprintf("node %d to know all %d nodes", i, total), func() (bool, string) {
			nodes, err := cl.ClusterNodes(ctx).Result()
			if err != nil {
				return false, err.Error()
			}
			lines := strings.Split(strings.TrimSpace(nodes), "\n")
			return len(lines) == total && !strings.Contains(nodes, "handshake"), nodes
		})
	}
	for i, n := range c.Nodes {
		if n.Master < 0 {
			continue
		}
		if err := clients[i].Do(ctx, "CLUSTER", "REPLICATE", c.Nodes[n.Master].ID).Err(); err != nil {
			t.Fatalf("storagetest: CLUSTER REPLICATE on node %d: %v", i, err)
		}
	}
	for i, cl := range clients {
		c.await(t, deadline, fmt.Sprintf("node %d: cluster ok, replication up", i), func() (bool, string) {
			info, err := cl.ClusterInfo(ctx).Result()
			if err != nil || !strings.Contains(info, "cluster_state:ok") {
				return false, fmt.Sprint(info, err)
			}
			if c.Nodes[i].Master < 0 {
				return true, ""
			}
			repl, err := cl.Info(ctx, "replication").Result()
			return err == nil && strings.Contains(repl, "master_link_status:up"), fmt.Sprint(repl, err)
		})
	}
	// Every master must see its replicas before one of them can be elected in its place.
	for i := range o.Masters {
		c.await(t, deadline, fmt.Sprintf("master %d to know its %d replicas", i, o.Replicas), func() (bool, string) {
			nodes, err := clients[i].ClusterNodes(ctx).Result()
			return err == nil && strings.Count(nodes, " "+c.Nodes[i].ID+" ") == o.Replicas, nodes
		})
	}
	return c
}

// await polls ok every 20 ms until it holds, failing the test with what it last said once the
// deadline has passed.
func (c *Cluster) await(t testing.TB, deadline time.Time, what string, ok func() (bool, string)) {
	t.Helper()
	for {
		done, last := ok()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("storagetest: cluster: waited too long for %s:\n%s", what, last)
		}
		<-time.After(20 * time.Millisecond)
	}
}

// URL is the address of the cluster as a REDIS_URL (redis+cluster://, every node named).
func (c *Cluster) URL() string {
	q := url.Values{}
	for _, n := range c.Nodes[1:] {
		q.Add("addr", n.Addr)
	}
	return "redis+cluster://" + c.Nodes[0].Addr + "?" + q.Encode()
}

// Addrs are the addresses of the cluster's nodes.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Nodes))
	for i, n := range c.Nodes {
		out[i] = n.Addr
	}
	return out
}

// MasterOf is the index of the master that served key at the start (Owner of its slot).
func (c *Cluster) MasterOf(key string) int { return c.opt.Owner(Slot(key)) }

// Slot is the Redis Cluster hash slot of key: CRC16 (XMODEM) of its hash tag (the part in the
// first {…} when not empty), else of the whole key, modulo ClusterSlots.
func Slot(key string) int {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			key = key[i+1 : i+1+j]
		}
	}
	var crc uint16
	for i := 0; i < len(key); i++ {
		crc ^= uint16(key[i]) << 8
		for range 8 {
			if crc&0x8000 != 0 {
				crc = crc<<1 ^ 0x1021
			} else {
				crc <<= 1
			}
		}
	}
	return int(crc) % ClusterSlots
}

// Pause stops the node's process (SIGSTOP) without closing its connections: like a host gone
// from the network, it answers nothing, and connecting to it waits rather than fails. Kill
// still ends it.
func (n *ClusterNode) Pause() error { return n.cmd.Process.Signal(syscall.SIGSTOP) }

// WaitPromoted waits, with bounded patience, until a replica of master (an index in Nodes)
// has taken its place: it says it is a master and its cluster is ok. It returns that node.
func (c *Cluster) WaitPromoted(t testing.TB, master int, patience time.Duration) *ClusterNode {
	t.Helper()
	ctx := context.Background()
	var got *ClusterNode
	c.await(t, time.Now().Add(patience), fmt.Sprintf("a replica of master %d to take over", master), func() (bool, string) {
		var last strings.Builder
		for _, n := range c.Nodes {
			if n.Master != master {
				continue
			}
			cl := redis.NewClient(&redis.Options{Addr: n.Addr, DialTimeout: 200 * time.Millisecond})
			repl, err := cl.Info(ctx, "replication").Result()
			info, ierr := cl.ClusterInfo(ctx).Result()
			cl.Close()
			fmt.Fprintln(&last, n.Addr, repl, err, info, ierr)
			if err == nil && ierr == nil && strings.Contains(repl, "role:master") && strings.Contains(info, "cluster_state:ok") {
				got = n
				return true, ""
			}
		}
		return false, last.String()
	})
	return got
}
