//! Shared by the conformance tests: connections from the environment, fresh databases, and the
//! replays that put the model's traffic to real servers and compare every answer.

#![allow(dead_code)] // each test module uses its own part

use std::io::Write as _;
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use idem_conformance::plan::{retimed, Plan, Target};
use idem_conformance::view::{KeyView, ResultView, ReturnedView, Tables};
use idem_conformance::{harvest, label, Harvest, RedisEvent, SqlEvent};
use idem_core::ledger::{Ledger, SqlBatch};
use idem_core::sql::{self, Covered, Returns, RowCount, Schema, KEY_COLUMNS};
use idem_core::store::{RedisReply, Store};
use idem_core::{Scenario, SimTime, World};
use postgres::{Client, Config, NoTls, SimpleQueryMessage, SimpleQueryRow};

/// A connection setting the test script always exports; without it the tests fail, loudly.
pub fn env(name: &str) -> String {
    match std::env::var(name) {
        Ok(v) if !v.trim().is_empty() => v,
        _ => panic!(
            "{name} is not set. These tests compare the core's models with a real PostgreSQL and \
             Redis: run `bash scripts/conformance.sh`, which starts throwaway servers and sets \
             IDEM_PG_URL (e.g. \"host=127.0.0.1 port=54329 user=postgres dbname=postgres\") and \
             IDEM_REDIS_URL (e.g. redis://127.0.0.1:63799/)."
        ),
    }
}

static SERIAL: Mutex<()> = Mutex::new(());

/// The tests share one Redis (FLUSHALL per run): one at a time, whatever `--test-threads`.
pub fn serial() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Writes a line that `cargo test` shows even for a passing test.
pub fn announce(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

// --- PostgreSQL ----------------------------------------------------------------------------

fn admin() -> Client {
    let url = env("IDEM_PG_URL");
    Client::connect(&url, NoTls)
        .unwrap_or_else(|e| panic!("cannot connect to PostgreSQL at {url:?}: {e}"))
}

/// A database of its own, dropped again when this value goes.
pub struct Db {
    /// Its name.
    pub name: String,
    config: Config,
    /// A connection to it.
    pub client: Client,
}

static NEXT_DB: AtomicU32 = AtomicU32::new(0);
static DROP_LATER: Mutex<Vec<String>> = Mutex::new(Vec::new());

impl Db {
    /// A new empty database named after `tag` (a leftover of the same name is dropped first).
    pub fn fresh(tag: &str) -> Db {
        let clean: String = tag
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(40)
            .collect();
        let name = format!("idem_{}_{clean}", NEXT_DB.fetch_add(1, Ordering::Relaxed));
        let mut admin = admin();
        let done: Vec<String> =
            std::mem::take(&mut *DROP_LATER.lock().unwrap_or_else(|p| p.into_inner()));
        for old in done {
            let _ = admin.batch_execute(&format!("DROP DATABASE IF EXISTS {old} WITH (FORCE)"));
        }
        admin
            .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
            .expect("drop database");
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create database");
        let mut config = Config::from_str(&env("IDEM_PG_URL")).expect("IDEM_PG_URL parses");
        config.dbname(&name);
        let client = config.connect(NoTls).expect("connect to the new database");
        Db {
            name,
            config,
            client,
        }
    }

    /// A new database with the ledger's schema and rows.
    pub fn with_ledger(tag: &str, ledger: &Ledger) -> Db {
        let mut db = Db::fresh(tag);
        for statement in Schema::of(ledger).ddl().iter().chain(&sql::seed(ledger)) {
            db.client
                .batch_execute(statement)
                .unwrap_or_else(|e| panic!("{statement}: {e}"));
        }
        db
    }

    /// Another connection to the same database.
    pub fn connect(&self) -> Client {
        self.config.connect(NoTls).expect("another connection")
    }

    /// Runs one statement, panicking with it on an error.
    pub fn run(&mut self, sql: &str) -> Outcome {
        run(&mut self.client, sql).unwrap_or_else(|e| panic!("{sql}: {e}"))
    }

    /// `text` as PostgreSQL prints it as `jsonb` (key order, spacing).
    pub fn jsonb(&mut self, text: &str) -> String {
        let out = self.run(&format!("SELECT {}::jsonb::text AS j", sql::quote(text)));
        out.rows[0].get("j").expect("a value").to_owned()
    }

    /// Every table's rows.
    pub fn tables(&mut self) -> Tables {
        let int = |row: &SimpleQueryRow, c: &str| -> i64 { parse(row.get(c), c) };
        let text =
            |row: &SimpleQueryRow, c: &str| -> String { row.get(c).unwrap_or_default().to_owned() };
        let mut t = Tables {
            charges: self
                .run("SELECT payment_id, user_id, amount_cents, idempotency_key FROM charges")
                .rows
                .iter()
                .map(|r| {
                    (
                        text(r, "payment_id"),
                        int(r, "user_id"),
                        int(r, "amount_cents"),
                        r.get("idempotency_key").map(str::to_owned),
                    )
                })
                .collect(),
            accounts: self
                .run("SELECT id, balance, version FROM accounts")
                .rows
                .iter()
                .map(|r| (int(r, "id"), int(r, "balance"), int(r, "version")))
                .collect(),
            posts: self
                .run("SELECT id, likes FROM posts")
                .rows
                .iter()
                .map(|r| (int(r, "id"), int(r, "likes")))
                .collect(),
            like_ops: self
                .run("SELECT op_id FROM like_ops")
                .rows
                .iter()
                .map(|r| text(r, "op_id"))
                .collect(),
            account_ops: self
                .run("SELECT op_id FROM account_ops")
                .rows
                .iter()
                .map(|r| text(r, "op_id"))
                .collect(),
            keys: self
                .run(&format!(
                    "SELECT {} FROM idempotency_keys",
                    KEY_COLUMNS.join(", ")
                ))
                .rows
                .iter()
                .map(key_view)
                .collect(),
            fences: self
                .run("SELECT counter, token FROM fences")
                .rows
                .iter()
                .map(|r| (text(r, "counter"), int(r, "token")))
                .collect(),
        };
        t.sort();
        t
    }

    /// The model's tables with their JSON spelled as PostgreSQL spells it.
    pub fn expected_tables(&mut self, ledger: &Ledger) -> Tables {
        Tables::of(ledger).map_json(&mut |s| self.jsonb(s))
    }
}

impl Drop for Db {
    fn drop(&mut self) {
        // Dropped by the next `Db::fresh`: by then this connection has long gone, so DROP
        // DATABASE never waits for its backend to exit.
        DROP_LATER
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .push(self.name.clone());
    }
}

/// What one statement gave: the command tag's count and the rows.
#[derive(Debug)]
pub struct Outcome {
    /// Rows affected or selected.
    pub count: u64,
    /// Returned rows.
    pub rows: Vec<SimpleQueryRow>,
}

/// Runs one statement with the simple query protocol: the text goes to the server as it is.
pub fn run(client: &mut Client, sql: &str) -> Result<Outcome, postgres::Error> {
    let mut out = Outcome {
        count: 0,
        rows: Vec::new(),
    };
    for message in client.simple_query(sql)? {
        match message {
            SimpleQueryMessage::Row(row) => out.rows.push(row),
            SimpleQueryMessage::CommandComplete(n) => out.count = n,
            _ => {}
        }
    }
    Ok(out)
}

fn parse(value: Option<&str>, column: &str) -> i64 {
    value
        .unwrap_or_else(|| panic!("{column} is NULL"))
        .parse()
        .unwrap_or_else(|e| panic!("{column}: {e}"))
}

fn key_view(row: &SimpleQueryRow) -> KeyView {
    let text = |c: &str| row.get(c).unwrap_or_default().to_owned();
    KeyView {
        user_id: parse(row.get("user_id"), "user_id"),
        key: text("key"),
        fingerprint: text("fingerprint"),
        status: text("status"),
        response: row.get("response").map(str::to_owned),
        locked_until: parse(row.get("locked_until"), "locked_until"),
        expires_at: parse(row.get("expires_at"), "expires_at"),
        request_params: row.get("request_params").map(str::to_owned),
    }
}

/// The real result of a covered model statement, read as `idem_core::sql` says.
pub fn read_result(outcome: &Outcome, covered: &Covered) -> ResultView {
    let first = outcome.rows.first();
    let rows = match covered.rows {
        RowCount::Tag => outcome.count,
        RowCount::Column(c) => first.map_or(0, |r| parse(r.get(c), c).max(0).unsigned_abs()),
    };
    let present = |c: &str| first.and_then(|r| r.get(c)).is_some();
    let returned = match covered.returns {
        Returns::Nothing => ReturnedView::Nothing,
        Returns::Account if present("balance") => {
            let r = first.expect("a row");
            ReturnedView::Account(
                parse(r.get("balance"), "balance"),
                parse(r.get("version"), "version"),
            )
        }
        Returns::Likes if present("likes") => {
            ReturnedView::Likes(parse(first.and_then(|r| r.get("likes")), "likes"))
        }
        Returns::Key if present("key") => ReturnedView::Key(key_view(first.expect("a row"))),
        Returns::Keys => ReturnedView::Keys(outcome.rows.iter().map(key_view).collect()),
        Returns::Charge if present("payment_id") => {
            let r = first.expect("a row");
            ReturnedView::Charge((
                r.get("payment_id").unwrap_or_default().to_owned(),
                parse(r.get("user_id"), "user_id"),
                parse(r.get("amount_cents"), "amount_cents"),
                r.get("idempotency_key").map(str::to_owned),
            ))
        }
        Returns::Account | Returns::Likes | Returns::Key | Returns::Charge => ReturnedView::Nothing,
    };
    ResultView { rows, returned }
}

/// A SQL replay: the database it ran on, what was compared, and every disagreement.
pub struct SqlReplay {
    /// Who ran.
    pub label: String,
    /// The database, still there for more checks.
    pub db: Db,
    /// Model statements compared.
    pub compared: usize,
    /// Disagreements, one readable paragraph each.
    pub problems: Vec<String>,
    /// The real results, per batch and statement.
    pub real: Vec<Vec<ResultView>>,
}

/// Replays the run's batches, in order and at their times, on a fresh database with the
/// scenario's schema and rows, comparing each model statement's rows and returned row.
pub fn replay_sql(scenario: &Scenario, h: &Harvest) -> SqlReplay {
    replay_batches(&label(scenario), World::new(scenario).ledger(), &h.sql)
}

/// Runs `batches` on the model `ledger` (each at its time) and returns them as events.
pub fn model_events(ledger: &mut Ledger, batches: &[(u64, SqlBatch)]) -> Vec<SqlEvent> {
    batches
        .iter()
        .map(|(at, batch)| SqlEvent {
            step: 0,
            at: SimTime(*at),
            batch: batch.clone(),
            results: ledger.execute(SimTime(*at), batch),
        })
        .collect()
}

/// Replays `events` on a fresh database holding `initial`'s schema and rows, comparing each
/// model statement's rows and returned row with the real ones.
pub fn replay_batches(label: &str, initial: &Ledger, events: &[SqlEvent]) -> SqlReplay {
    let schema = Schema::of(initial);
    let mut r = SqlReplay {
        db: Db::with_ledger(label, initial),
        label: label.to_owned(),
        compared: 0,
        problems: Vec::new(),
        real: Vec::new(),
    };
    for (n, event) in events.iter().enumerate() {
        r.db.run(&sql::cleanup(event.at));
        let rendered = match schema.render_batch(&event.batch, event.at) {
            Ok(rendered) => rendered,
            Err(e) => {
                r.problems.push(format!(
                    "{}: batch {n} has no SQL rendering: {e:?}",
                    r.label
                ));
                r.real.push(Vec::new());
                continue;
            }
        };
        let mut real = vec![
            ResultView {
                rows: 0,
                returned: ReturnedView::Nothing
            };
            event.batch.statements.len()
        ];
        if rendered.transaction {
            r.db.run("BEGIN");
        }
        for unit in &rendered.units {
            let outcome = match run(&mut r.db.client, &unit.sql) {
                Ok(outcome) => outcome,
                Err(e) => {
                    r.problems.push(format!(
                        "{}: batch {n}: {}\n    failed: {e}",
                        r.label, unit.sql
                    ));
                    break;
                }
            };
            for covered in &unit.covers {
                let got = read_result(&outcome, covered);
                let model =
                    ResultView::of(&event.results[covered.index]).map_json(&mut |s| r.db.jsonb(s));
                r.compared += 1;
                if got != model {
                    r.problems.push(format!(
                        "{}: batch {n} (t={} ms) statement {}: {}\n    model: {model:?}\n    real:  {got:?}",
                        r.label,
                        event.at.ms(),
                        covered.index,
                        unit.sql
                    ));
                }
                real[covered.index] = got;
            }
        }
        if rendered.transaction {
            // After an error PostgreSQL turns COMMIT into ROLLBACK; either ends the transaction.
            let _ = run(&mut r.db.client, "COMMIT");
        }
        r.real.push(real);
    }
    r
}

impl SqlReplay {
    /// Compares every table with the model's `ledger` as of `end` (the cleanup job runs
    /// first, as it does in the model), and returns the real tables.
    pub fn compare_tables(&mut self, ledger: &Ledger, end: SimTime) -> Tables {
        self.db.run(&sql::cleanup(end));
        let real = self.db.tables();
        let model = self.db.expected_tables(ledger);
        if real != model {
            self.problems.push(format!(
                "{}: final tables differ\n    model: {model:?}\n    real:  {real:?}",
                self.label
            ));
        }
        real
    }
}

// --- Redis ---------------------------------------------------------------------------------

/// A new connection to the test Redis.
pub fn redis_connection() -> redis::Connection {
    let url = env("IDEM_REDIS_URL");
    redis::Client::open(url.as_str())
        .and_then(|c| c.get_connection())
        .unwrap_or_else(|e| panic!("cannot connect to Redis at {url:?}: {e}"))
}

/// A Redis reply, reduced to what the model can say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`.
    Ok,
    /// `(nil)`.
    Nil,
    /// A string value.
    Value(String),
    /// An integer (`INCR`).
    Int(i64),
    /// Anything else (an error, another type).
    Other(String),
}

impl Reply {
    /// The model's reply, with a stored record as a real server stores it.
    pub fn of(reply: &RedisReply) -> Reply {
        match reply {
            RedisReply::Ok => Reply::Ok,
            RedisReply::Nil => Reply::Nil,
            RedisReply::Value(record) => Reply::Value(sql::redis_value(record)),
            RedisReply::Int(n) => Reply::Int(i64::try_from(*n).unwrap_or(i64::MAX)),
        }
    }
}

/// Sends `argv` and reduces the reply.
pub fn send(con: &mut redis::Connection, argv: &[String]) -> Reply {
    let mut cmd = redis::cmd(&argv[0]);
    for arg in &argv[1..] {
        cmd.arg(arg);
    }
    match cmd.query::<redis::Value>(con) {
        Ok(redis::Value::Okay) => Reply::Ok,
        Ok(redis::Value::Nil) => Reply::Nil,
        Ok(redis::Value::Int(n)) => Reply::Int(n),
        Ok(redis::Value::BulkString(bytes)) => {
            Reply::Value(String::from_utf8_lossy(&bytes).into_owned())
        }
        Ok(other) => Reply::Other(format!("{other:?}")),
        Err(e) => Reply::Other(format!("error: {e}")),
    }
}

/// A Redis replay: what was compared, the real replies, and every disagreement.
pub struct RedisReplay {
    /// Commands compared.
    pub compared: usize,
    /// Disagreements.
    pub problems: Vec<String>,
    /// The real reply per event (`None` for an eviction).
    pub real: Vec<Option<Reply>>,
    /// Real time spent sleeping past expiry boundaries.
    pub slept: Duration,
}

/// The first boundary spacing tried; doubled after a run the machine was too slow for.
const FIRST_SPACING: Duration = Duration::from_millis(40);
/// Redis keeps expiry in whole milliseconds and a key lives through its last one.
const GRANULARITY: Duration = Duration::from_millis(3);

/// Replays the store's events on a flushed Redis, with simulated expiry mapped onto real time
/// as `idem_conformance::plan` describes, then compares the final keys with `store`.
pub fn replay_redis(
    label: &str,
    events: &[RedisEvent],
    end: SimTime,
    store: &Store,
) -> RedisReplay {
    let plan = Plan::new(events, end);
    let mut spacing = FIRST_SPACING;
    let mut slept = Duration::ZERO;
    for _ in 0..5 {
        match try_redis(label, events, &plan, store, spacing) {
            Ok(mut replay) => {
                replay.slept += slept;
                return replay;
            }
            Err((why, wasted)) => {
                announce(&format!(
                    "{label}: {why}; replaying with boundaries {} ms apart",
                    (spacing * 2).as_millis()
                ));
                slept += wasted;
                spacing *= 2;
            }
        }
    }
    panic!("{label}: the machine was too slow for every Redis timing plan");
}

fn try_redis(
    label: &str,
    events: &[RedisEvent],
    plan: &Plan,
    store: &Store,
    spacing: Duration,
) -> Result<RedisReplay, (String, Duration)> {
    let mut con = redis_connection();
    send(&mut con, &["FLUSHALL".to_owned()]);
    let start = Instant::now();
    let boundary = |k: usize| start + spacing * u32::try_from(k).unwrap_or(u32::MAX);
    let mut set_rtt = vec![Duration::ZERO; plan.boundaries + 2];
    let mut out = RedisReplay {
        compared: 0,
        problems: Vec::new(),
        real: Vec::new(),
        slept: Duration::ZERO,
    };
    let wait = |k: usize, set_rtt: &[Duration], slept: &mut Duration| {
        let until = boundary(k) + set_rtt[k] + GRANULARITY;
        let now = Instant::now();
        if until > now {
            std::thread::sleep(until - now);
            *slept += until - now;
        }
    };
    for (o, event) in events.iter().enumerate() {
        if let Some(k) = plan.wait_before[o] {
            wait(k, &set_rtt, &mut out.slept);
        }
        match event {
            RedisEvent::Evict { .. } => {
                send(&mut con, &["FLUSHALL".to_owned()]);
                out.real.push(None);
            }
            RedisEvent::Command {
                at, command, reply, ..
            } => {
                let mut argv = sql::redis_argv(command);
                let aimed = match (command, plan.target[o]) {
                    (command, Some(Target::Boundary(k))) if retimed(command) => k,
                    _ => plan.boundaries + 1,
                };
                // A fenced SET keeps a day's TTL (the key's record): it outlives the replay.
                if retimed(command) {
                    let left = boundary(aimed).saturating_duration_since(Instant::now());
                    let px = left.as_micros().div_ceil(1_000).max(1);
                    if let Some(ttl) = argv.last_mut() {
                        *ttl = px.to_string();
                    }
                }
                let sent = Instant::now();
                let got = send(&mut con, &argv);
                set_rtt[aimed] = set_rtt[aimed].max(sent.elapsed());
                let model = Reply::of(reply);
                out.compared += 1;
                if got != model {
                    out.problems.push(format!(
                        "{label}: Redis command {o} (t={} ms): {}\n    sent:  {argv:?}\n    model: {model:?}\n    real:  {got:?}",
                        at.ms(),
                        command.render()
                    ));
                }
                out.real.push(Some(got));
            }
        }
        let next = plan.next_boundary_after(o);
        if Instant::now() + Duration::from_millis(1) >= boundary(next) {
            return Err((format!("event {o} ran past boundary {next}"), out.slept));
        }
    }
    if let Some(k) = plan.wait_before[events.len()] {
        wait(k, &set_rtt, &mut out.slept);
    }
    let real = real_store(&mut con);
    if Instant::now() + Duration::from_millis(1) >= boundary(plan.boundaries + 1) {
        return Err((
            "the final look ran past the last boundary".to_owned(),
            out.slept,
        ));
    }
    // The fencing counters have no expiry (`INCR` on a new key).
    let mut model: Vec<(String, String)> = store
        .entries()
        .map(|(k, v)| (k.to_string(), sql::redis_value(&v.record)))
        .chain(
            store
                .counters()
                .map(|(k, n)| (k.to_string(), format!("{n} (PTTL -1)"))),
        )
        .collect();
    model.sort();
    if real != model {
        out.problems.push(format!(
            "{label}: final Redis keys differ\n    model: {model:?}\n    real:  {real:?}"
        ));
    }
    Ok(out)
}

/// Every live key with its value, sorted; a key without an expiry is flagged in its value.
fn real_store(con: &mut redis::Connection) -> Vec<(String, String)> {
    let keys: Vec<String> = redis::cmd("KEYS").arg("*").query(con).expect("KEYS");
    let mut out: Vec<(String, String)> = keys
        .into_iter()
        .map(|key| {
            let value = match send(con, &["GET".to_owned(), key.clone()]) {
                Reply::Value(v) => v,
                other => format!("{other:?}"),
            };
            let ttl: i64 = redis::cmd("PTTL").arg(&key).query(con).expect("PTTL");
            let value = if ttl > 0 {
                value
            } else {
                format!("{value} (PTTL {ttl})")
            };
            (key, value)
        })
        .collect();
    out.sort();
    out
}

// --- one scenario ------------------------------------------------------------------------------

/// The outcome of checking one scenario on both servers.
pub struct ScenarioCheck {
    /// Model statements compared.
    pub sql: usize,
    /// Redis commands compared.
    pub redis: usize,
    /// Real time slept for Redis expiry.
    pub slept: Duration,
    /// Disagreements.
    pub problems: Vec<String>,
    /// The SQL replay (its database is still there).
    pub sql_replay: SqlReplay,
    /// The real tables at the end.
    pub tables: Tables,
    /// The Redis replay.
    pub redis_replay: RedisReplay,
    /// The model's world at the end.
    pub world: World,
    /// What the backends saw.
    pub harvest: Harvest,
}

/// Runs `scenario` to quiescence and replays everything its backends saw.
pub fn check(scenario: &Scenario) -> ScenarioCheck {
    let world = idem_conformance::run(scenario);
    let h = harvest(&world).unwrap_or_else(|e| panic!("{}: {e}", label(scenario)));
    let mut sql_replay = replay_sql(scenario, &h);
    let tables = sql_replay.compare_tables(world.ledger(), h.end);
    let redis_replay = replay_redis(&label(scenario), &h.redis, h.end, world.store());
    let mut problems = sql_replay.problems.clone();
    problems.extend(redis_replay.problems.iter().cloned());
    ScenarioCheck {
        sql: sql_replay.compared,
        redis: redis_replay.compared,
        slept: redis_replay.slept,
        problems,
        sql_replay,
        tables,
        redis_replay,
        world,
        harvest: h,
    }
}

impl ScenarioCheck {
    /// Fails with every disagreement.
    pub fn assert_agrees(&self) {
        assert!(
            self.problems.is_empty(),
            "{} disagreement(s):\n{}",
            self.problems.len(),
            self.problems.join("\n")
        );
    }
}
