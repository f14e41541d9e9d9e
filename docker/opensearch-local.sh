#!/usr/bin/env bash
# opensearch-local.sh: a local OpenSearch for tests and development, without
# a container engine. It fetches OpenSearch's minimal server distribution
# from Maven Central (org.opensearch.distribution.integ-test-zip:opensearch,
# the same version as compose.yaml's image), adds the analysis-common and
# reindex modules and the k-NN plugin of the same release (see install),
# unpacks it once into a cache directory and runs 1 or 3 nodes on 127.0.0.1.
#
#   docker/opensearch-local.sh start [1|3]  start (or find running) nodes, wait
#                                           for cluster health, print the URL(s); on
#                                           a running set, first starts again (on
#                                           their data) the nodes that died
#   docker/opensearch-local.sh url          the running nodes' URLs, comma-separated
#                                           (the form OPENSEARCH_URL takes)
#   docker/opensearch-local.sh status       nodes, pids, cluster health
#   docker/opensearch-local.sh stop         stop exactly the nodes this script started
#   docker/opensearch-local.sh clean        stop, then remove the nodes' data, logs and snapshots
#
# Every node has path.repo=<home>/snapshots, so fs snapshot repositories
# can be registered with a location relative to it (docs/operations.md,
# "Backup and restore"; internal/store/osstore's snapshot test).
#
# e.g.  docker/opensearch-local.sh start
#       OPENSEARCH_URL=$(docker/opensearch-local.sh url) go test ./internal/search/opensearch/ -run TestContract -v
#       docker/opensearch-local.sh stop
#
# Environment (all optional):
#   RECORDWATCH_OPENSEARCH_HOME       cache: distribution, nodes' data and logs, pids
#                                     (default $XDG_CACHE_HOME or ~/.cache /recordwatch-opensearch;
#                                     /var/cache/recordwatch-opensearch when run as root, since the
#                                     unprivileged user the node runs as cannot enter /root)
#   RECORDWATCH_OPENSEARCH_HTTP_PORT  first HTTP port (default 9250; node i uses +i-1)
#   RECORDWATCH_OPENSEARCH_TRANSPORT_PORT  first transport port (default 9350)
#   RECORDWATCH_OPENSEARCH_HEAP       JVM heap per node (default 512m)
#   RECORDWATCH_OPENSEARCH_WAIT       seconds to wait for cluster health (default 180)
#   RECORDWATCH_OPENSEARCH_USER       user the nodes run as when this runs as root (default opensearch)
#   OPENSEARCH_JAVA_HOME / JAVA_HOME  the JDK (default: a JDK 17 or 21 under /usr/lib/jvm, else java on PATH)
set -euo pipefail

# The one place the local version is set; compose.yaml's image must match
# (a test in internal/search/opensearch checks that).
OPENSEARCH_VERSION=2.19.1

if [ "$(id -u)" -eq 0 ]; then
	default_home=/var/cache/recordwatch-opensearch
else
	default_home="${XDG_CACHE_HOME:-$HOME/.cache}/recordwatch-opensearch"
fi
OS_HOME="${RECORDWATCH_OPENSEARCH_HOME:-$default_home}"
HTTP_BASE="${RECORDWATCH_OPENSEARCH_HTTP_PORT:-9250}"
TRANSPORT_BASE="${RECORDWATCH_OPENSEARCH_TRANSPORT_PORT:-9350}"
HEAP="${RECORDWATCH_OPENSEARCH_HEAP:-512m}"
WAIT="${RECORDWATCH_OPENSEARCH_WAIT:-180}"
RUN_USER="${RECORDWATCH_OPENSEARCH_USER:-opensearch}"

DIST_DIR="$OS_HOME/dist"
INSTALL="$OS_HOME/opensearch-$OPENSEARCH_VERSION"
RUN_DIR="$OS_HOME/run"
STATE="$RUN_DIR/nodes" # "<count> <http base> <transport base>" of the running set
SNAP_DIR="$OS_HOME/snapshots" # path.repo of every node (one directory: an fs repository is shared by the nodes)
CLUSTER=recordwatch-local

say() { printf 'opensearch-local: %s\n' "$*" >&2; }
die() {
	say "$*"
	exit 1
}

is_root() { [ "$(id -u)" -eq 0 ]; }

# as_node runs a command as the user the nodes run as.
as_node() {
	if is_root; then
		runuser -u "$RUN_USER" -- "$@"
	else
		"$@"
	fi
}

find_java_home() {
	local j
	for j in "${OPENSEARCH_JAVA_HOME:-}" "${JAVA_HOME:-}"; do
		if [ -n "$j" ] && [ -x "$j/bin/java" ]; then
			echo "$j"
			return
		fi
	done
	# OpenSearch 2.x runs on JDK 11, 17 and 21; prefer 17, the one it was checked on here.
	for j in /usr/lib/jvm/java-17-openjdk-amd64 /usr/lib/jvm/java-17-openjdk* /usr/lib/jvm/*-17* \
		/usr/lib/jvm/java-21-openjdk* /usr/lib/jvm/*-21* /usr/lib/jvm/java-11-openjdk* /usr/lib/jvm/*-11*; do
		if [ -x "$j/bin/java" ]; then
			echo "$j"
			return
		fi
	done
	if command -v java >/dev/null 2>&1; then
		j="$(readlink -f "$(command -v java)")"
		echo "${j%/bin/java}"
		return
	fi
	die "no JDK found: install OpenJDK 17 (apt-get install openjdk-17-jdk-headless) or set JAVA_HOME"
}

# mvn runs Maven quietly, failing on a bad checksum (-C); its output goes to
# stderr without the colour codes Maven 3.8 prints even with -q.
mvn() {
	command -v mvn >/dev/null 2>&1 || die "mvn not found: it fetches OpenSearch from Maven Central (apt-get install maven)"
	command mvn -B -q -C "$@" 2>&1 | sed -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d' >&2
}

mvn_copy() { # artifact outdir
	mvn org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
		-Dartifact="$1" -DoutputDirectory="$2" -Dmdep.overWriteReleases=false ||
		die "could not fetch $1 from Maven Central"
}

# fetch_module copies a module's jar and its runtime dependencies, as the
# release's own published poms declare them, into $DIST_DIR/modules/<name>.
fetch_module() { # name artifactId
	local dir="$DIST_DIR/modules/$1"
	if [ -f "$dir/.done" ]; then
		return
	fi
	say "fetching the $1 module $OPENSEARCH_VERSION from Maven Central"
	rm -rf "$dir"
	mkdir -p "$dir/pom"
	cat >"$dir/pom/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.recordwatch</groupId>
  <artifactId>opensearch-module-$1</artifactId>
  <version>0</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.opensearch.plugin</groupId>
      <artifactId>$2</artifactId>
      <version>$OPENSEARCH_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
	mvn -f "$dir/pom/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies \
		-DincludeScope=runtime -DoutputDirectory="$dir/jars" ||
		die "could not fetch org.opensearch.plugin:$2:$OPENSEARCH_VERSION from Maven Central"
	touch "$dir/.done"
}

# install_module puts a fetched module into the unpacked tree with its
# descriptor (the published jars carry none). A dependency the server
# already has in lib/ is left out: OpenSearch refuses duplicate classes.
install_module() { # root name classname description
	local dst="$1/modules/$2" j
	mkdir -p "$dst"
	for j in "$DIST_DIR/modules/$2/jars"/*.jar; do
		if [ ! -e "$1/lib/$(basename "$j")" ]; then
			cp "$j" "$dst/"
		fi
	done
	cat >"$dst/plugin-descriptor.properties" <<EOF
description=$4
version=$OPENSEARCH_VERSION
name=$2
classname=$3
java.version=11
opensearch.version=$OPENSEARCH_VERSION
custom.foldername=
extended.plugins=
has.native.controller=false
EOF
}

# install fetches and unpacks the distribution once. The minimal
# distribution has only the transport-netty4 module; two more of the same
# release are added, as the full distribution (compose.yaml's image) has
# them: analysis-common (the lowercase, stemmer and porter_stem filters the
# notices and passages mappings use) and reindex (_reindex for mapping
# migrations, _delete_by_query for deletes). analysis-common goes in without
# the full distribution's extended.plugins=lang-painless: painless is not
# here, and only painless reads that module's script whitelist.
# The k-NN plugin (org.opensearch.plugin:opensearch-knn, the release's
# version with a fourth digit, a zip on Maven Central) goes into plugins/
# for the records' knn_vector field (mappings/records.v2.json, Lucene
# HNSW), likewise without extended.plugins=lang-painless: only painless
# reads its scoring-script allowlist (KNNAllowlistExtension).
KNN_VERSION="$OPENSEARCH_VERSION.0"
install() {
	if [ -f "$INSTALL/.recordwatch-installed" ] && [ -d "$INSTALL/plugins/opensearch-knn" ]; then
		return
	fi
	mkdir -p "$DIST_DIR"
	local zip="$DIST_DIR/opensearch-$OPENSEARCH_VERSION.zip"
	if [ ! -f "$zip" ]; then
		say "fetching OpenSearch $OPENSEARCH_VERSION (minimal distribution) from Maven Central"
		mvn_copy "org.opensearch.distribution.integ-test-zip:opensearch:$OPENSEARCH_VERSION:zip" "$DIST_DIR"
	fi
	fetch_module analysis-common analysis-common
	fetch_module reindex reindex-client
	local knn="$DIST_DIR/opensearch-knn-$KNN_VERSION.zip"
	if [ ! -f "$knn" ]; then
		say "fetching the k-NN plugin $KNN_VERSION from Maven Central"
		mvn_copy "org.opensearch.plugin:opensearch-knn:$KNN_VERSION:zip" "$DIST_DIR"
	fi
	command -v unzip >/dev/null 2>&1 || die "unzip not found (apt-get install unzip)"
	local tmp="$OS_HOME/unpack.$$"
	rm -rf "$tmp" "$INSTALL"
	mkdir -p "$tmp"
	unzip -q "$zip" -d "$tmp"
	local root="$tmp/opensearch-$OPENSEARCH_VERSION"
	[ -d "$root" ] || die "unexpected layout in $zip"
	install_module "$root" analysis-common org.opensearch.analysis.common.CommonAnalysisPlugin \
		'Adds "built in" analyzers to OpenSearch.'
	install_module "$root" reindex org.opensearch.index.reindex.ReindexPlugin \
		'The Reindex module adds APIs to reindex from one index to another or update documents that match a query.'
	mkdir -p "$root/plugins/opensearch-knn"
	unzip -q "$knn" -d "$root/plugins/opensearch-knn"
	sed -i 's/^extended\.plugins=.*/extended.plugins=/' "$root/plugins/opensearch-knn/plugin-descriptor.properties"
	mv "$root" "$INSTALL"
	rmdir "$tmp"
	touch "$INSTALL/.recordwatch-installed"
	say "installed in $INSTALL"
}

ensure_user() {
	is_root || return 0
	if ! id -u "$RUN_USER" >/dev/null 2>&1; then
		say "creating system user $RUN_USER (OpenSearch refuses to run as root)"
		useradd --system --no-create-home --home-dir "$OS_HOME" --shell /usr/sbin/nologin "$RUN_USER"
	fi
}

node_dir() { echo "$OS_HOME/nodes/$1-node/node-$2"; } # count index
pidfile() { echo "$RUN_DIR/node-$1.pid"; }

# alive tells whether pid is one of this script's OpenSearch nodes (not a
# recycled pid).
alive() {
	local pid="$1"
	[ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "org.opensearch.bootstrap.OpenSearch" || return 1
	tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "-Dopensearch.path.home=$INSTALL" || return 1
}

running_pids() {
	local f pid
	for f in "$RUN_DIR"/node-*.pid; do
		[ -f "$f" ] || continue
		pid="$(cat "$f" 2>/dev/null || true)"
		if alive "$pid"; then echo "$pid"; fi
	done
}

urls() { # count base
	local i out=""
	for ((i = 0; i < $1; i++)); do
		out="${out:+$out,}http://127.0.0.1:$(($2 + i))"
	done
	echo "$out"
}

health() { # port [wait params]
	curl -fsS --max-time 10 "http://127.0.0.1:$1/_cluster/health${2:-}" 2>/dev/null
}

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

show_logs() {
	local n="$1" i d
	for ((i = 1; i <= n; i++)); do
		d="$(node_dir "$n" "$i")"
		say "---- node-$i: last lines of $d/logs/$CLUSTER.log and $d/stderr.log"
		tail -n 30 "$d/logs/$CLUSTER.log" >&2 2>/dev/null || true
		tail -n 30 "$d/stderr.log" >&2 2>/dev/null || true
	done
}

# nodes_up tells whether none of n nodes is known to have died: a node whose
# pid file names a live JVM is up, one whose pid file is gone or names no
# process is down; the JVM writes the file early in its start (the launcher
# returns before), so a missing file counts as down only after 30 s.
nodes_up() { # count seconds-since-start
	local i f
	for ((i = 1; i <= $1; i++)); do
		f="$(pidfile "$i")"
		if [ -s "$f" ]; then
			alive "$(cat "$f")" || return 1
		elif (($2 > 30)); then
			return 1
		fi
	done
}

wait_healthy() { # count base
	local n="$1" base="$2" started=$SECONDS deadline=$((SECONDS + WAIT)) h
	while ((SECONDS < deadline)); do
		h="$(health "$base" "?wait_for_status=yellow&wait_for_nodes=$n&timeout=5s" || true)"
		if printf '%s' "$h" | grep -Eq '"status":"(yellow|green)"' &&
			printf '%s' "$h" | grep -q "\"number_of_nodes\":$n," &&
			printf '%s' "$h" | grep -q '"timed_out":false'; then
			return 0
		fi
		if ! nodes_up "$n" $((SECONDS - started)); then
			show_logs "$n"
			die "a node exited while starting (logs above)"
		fi
		sleep 1
	done
	show_logs "$n"
	die "cluster not healthy within ${WAIT}s (set RECORDWATCH_OPENSEARCH_WAIT to wait longer)"
}

# discovery_args prints, one per line, the discovery settings of an n-node
# set whose first transport port is tbase.
discovery_args() { # count transport-base
	local i seeds="" masters=""
	if [ "$1" -eq 1 ]; then
		printf '%s\n' -E discovery.type=single-node
		return
	fi
	for ((i = 0; i < $1; i++)); do
		seeds="${seeds:+$seeds,}127.0.0.1:$(($2 + i))"
		masters="${masters:+$masters,}rw-node-$((i + 1))"
	done
	printf '%s\n' -E discovery.seed_hosts="$seeds" -E cluster.initial_cluster_manager_nodes="$masters"
}

# launch_node starts node i of an n-node set on its data directory (made by
# start), in the background; the JVM writes its pid to the node's pid file.
launch_node() { # count index http-base transport-base java-home
	local n="$1" i="$2" hbase="$3" tbase="$4" java_home="$5" d
	local discovery=()
	mapfile -t discovery < <(discovery_args "$n" "$tbase")
	d="$(node_dir "$n" "$i")"
	rm -f "$(pidfile "$i")"
	say "starting node-$i: http 127.0.0.1:$((hbase + i - 1)), transport $((tbase + i - 1)), heap $HEAP, JDK $java_home"
	# -d daemonizes; -p writes the JVM's own pid, the one stop kills
	(cd "$d" && as_node env OPENSEARCH_JAVA_HOME="$java_home" JAVA_HOME="$java_home" \
		OPENSEARCH_PATH_CONF="$d/config" OPENSEARCH_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP" \
		"$INSTALL/bin/opensearch" -d -p "$(pidfile "$i")" \
		-E cluster.name="$CLUSTER" -E node.name="rw-node-$i" \
		-E network.host=127.0.0.1 -E http.port="$((hbase + i - 1))" -E transport.port="$((tbase + i - 1))" \
		-E path.data="$d/data" -E path.logs="$d/logs" -E path.repo="$SNAP_DIR" \
		-E action.auto_create_index=false \
		-E cluster.routing.allocation.disk.threshold_enabled=false \
		"${discovery[@]}" >>"$d/stderr.log" 2>&1) || {
		show_logs "$n"
		die "node-$i did not start"
	}
}

# restart_dead starts again, on their own data directories, the nodes of the
# running n-node set whose pid names no live node (killed, crashed).
restart_dead() { # count http-base transport-base
	local n="$1" i f dead=()
	for ((i = 1; i <= n; i++)); do
		f="$(pidfile "$i")"
		if [ -s "$f" ] && alive "$(cat "$f" 2>/dev/null || true)"; then
			continue
		fi
		dead+=("$i")
	done
	if [ "${#dead[@]}" -gt 0 ]; then
		local p java_home
		for i in "${dead[@]}"; do
			for p in $(($2 + i - 1)) $(($3 + i - 1)); do
				if port_busy "$p"; then
					die "node-$i is down but port $p on 127.0.0.1 is in use by something else"
				fi
			done
		done
		java_home="$(find_java_home)"
		for i in "${dead[@]}"; do
			say "node-$i of the running $n-node set is down: restarting it on its data directory"
			launch_node "$n" "$i" "$2" "$3" "$java_home"
		done
	fi
}

start() {
	local n="${1:-1}"
	case "$n" in 1 | 3) ;; *) die "start takes 1 or 3 nodes, not $n" ;; esac
	mkdir -p "$RUN_DIR"
	if [ -n "$(running_pids)" ]; then
		local cur curbase curtbase
		read -r cur curbase curtbase <"$STATE" || die "nodes are running but $STATE is missing: run stop first"
		curtbase="${curtbase:-$TRANSPORT_BASE}"
		if [ "$cur" != "$n" ]; then
			die "$cur node(s) already running; run '$0 stop' before starting $n"
		fi
		# a node of the set that died is started again (the others are left
		# as they are), then the set is waited for as on a first start
		restart_dead "$cur" "$curbase" "$curtbase"
		wait_healthy "$cur" "$curbase"
		urls "$cur" "$curbase"
		return
	fi
	rm -f "$RUN_DIR"/node-*.pid "$STATE"

	local i
	for ((i = 0; i < n; i++)); do
		for p in $((HTTP_BASE + i)) $((TRANSPORT_BASE + i)); do
			if port_busy "$p"; then
				die "port $p on 127.0.0.1 is in use by something else; set RECORDWATCH_OPENSEARCH_HTTP_PORT / _TRANSPORT_PORT"
			fi
		done
	done

	install
	ensure_user
	local java_home
	java_home="$(find_java_home)"

	for ((i = 1; i <= n; i++)); do
		local d
		d="$(node_dir "$n" "$i")"
		mkdir -p "$d/data" "$d/logs" "$d/config"
		# each node gets its own copy of the config directory (the keystore
		# and jvm.options are per node), with the relative paths of
		# jvm.options (gc log, heap dumps) under the node's directory
		cp -R "$INSTALL/config/." "$d/config/"
		sed -i -e "s|^-Xms1g$|-Xms$HEAP|; s|^-Xmx1g$|-Xmx$HEAP|; s|logs/gc.log|$d/logs/gc.log|; s|HeapDumpPath=data|HeapDumpPath=$d/data|; s|ErrorFile=logs/|ErrorFile=$d/logs/|" "$d/config/jvm.options"
		: >"$d/stderr.log"
	done
	mkdir -p "$SNAP_DIR"
	if is_root; then
		chown -R "$RUN_USER" "$OS_HOME/nodes" "$INSTALL" "$RUN_DIR" "$SNAP_DIR"
		chmod 0755 "$OS_HOME"
		as_node test -w "$RUN_DIR" || die "user $RUN_USER cannot write $RUN_DIR: choose a RECORDWATCH_OPENSEARCH_HOME it can reach"
	fi

	echo "$n $HTTP_BASE $TRANSPORT_BASE" >"$STATE"
	for ((i = 1; i <= n; i++)); do
		launch_node "$n" "$i" "$HTTP_BASE" "$TRANSPORT_BASE" "$java_home"
	done
	wait_healthy "$n" "$HTTP_BASE"
	say "cluster $CLUSTER is up ($n node(s)); stop it with: $0 stop"
	urls "$n" "$HTTP_BASE"
}

url() {
	if [ -z "$(running_pids)" ] || [ ! -f "$STATE" ]; then
		die "no local OpenSearch running (start it with: $0 start)"
	fi
	local n base
	read -r n base _ <"$STATE"
	urls "$n" "$base"
}

status() {
	local pids
	pids="$(running_pids)"
	if [ -z "$pids" ] || [ ! -f "$STATE" ]; then
		echo "stopped (home $OS_HOME, OpenSearch $OPENSEARCH_VERSION)"
		return 3
	fi
	local n base
	read -r n base _ <"$STATE"
	echo "running: $n node(s), pids $(echo "$pids" | tr '\n' ' ')(home $OS_HOME, OpenSearch $OPENSEARCH_VERSION)"
	echo "url: $(urls "$n" "$base")"
	health "$base" || echo "health: no answer on port $base"
	echo
}

stop() {
	local f pid pids=()
	for f in "$RUN_DIR"/node-*.pid; do
		[ -f "$f" ] || continue
		pid="$(cat "$f" 2>/dev/null || true)"
		if alive "$pid"; then
			pids+=("$pid")
		fi
	done
	if [ "${#pids[@]}" -eq 0 ]; then
		say "no node running"
		rm -f "$RUN_DIR"/node-*.pid "$STATE"
		return 0
	fi
	say "stopping pid(s) ${pids[*]}"
	kill -TERM "${pids[@]}" 2>/dev/null || true
	local deadline=$((SECONDS + 60)) left
	while ((SECONDS < deadline)); do
		left=()
		for pid in "${pids[@]}"; do
			if alive "$pid"; then left+=("$pid"); fi
		done
		[ "${#left[@]}" -eq 0 ] && break
		sleep 0.5
	done
	for pid in "${pids[@]}"; do
		if alive "$pid"; then
			say "pid $pid still running after 60s: killing it"
			kill -KILL "$pid" 2>/dev/null || true
		fi
	done
	rm -f "$RUN_DIR"/node-*.pid "$STATE"
	say "stopped"
}

clean() {
	stop
	rm -rf "$OS_HOME/nodes" "$SNAP_DIR"
	say "removed nodes' data and logs under $OS_HOME/nodes and the snapshots in $SNAP_DIR (the unpacked distribution is kept)"
}

case "${1:-}" in
start) start "${2:-1}" ;;
stop) stop ;;
url) url ;;
status) status ;;
clean) clean ;;
version) echo "$OPENSEARCH_VERSION" ;;
*)
	sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
	;;
esac
