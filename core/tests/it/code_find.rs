//! `code.find`: from a description to the files and definitions it is about, on a real
//! git repository indexed for real — words, names written as code, paths, stack traces,
//! updates after edits, budgets, bad input.

use std::path::{Path, PathBuf};

use cc_search::Engine;
use serde_json::{Value, json};

use crate::common;
use common::{call, call_err, commit_all, hit_names, write};

const CART: &str = r#""""The shopping cart."""


class Cart:
    """Items a customer is about to buy."""

    def __init__(self):
        self.items = []

    def add_item(self, item, quantity=1):
        """Put `quantity` of an item in the cart."""
        self.items.append((item, quantity))

    def remove_item(self, item):
        self.items = [(i, q) for i, q in self.items if i != item]

    def total(self):
        """Sum of the item prices, each discount applied."""
        amount = 0
        for item, quantity in self.items:
            amount += item.price * quantity - item.discount
        return amount
"#;

const PAYMENT: &str = r#""""Charging customers."""


class PaymentDeclined(Exception):
    pass


def charge_card(card, amount, retries=3):
    """Charge a card through the gateway, retrying transient failures."""
    for attempt in range(retries):
        response = card.gateway.charge(amount)
        if response.ok:
            return response
    raise PaymentDeclined("the card was declined by the gateway")


def refund(payment):
    """Give the money back."""
    return payment.gateway.refund(payment.id)
"#;

const SHIPPING: &str = r#""""Delivery estimates."""

ZONES = {"domestic": 1, "europe": 2, "world": 3}


def estimate_delivery(address, weight):
    """Shipping cost by parcel weight and destination zone."""
    zone = ZONES.get(address.region, 3)
    return weight * 2.5 * zone
"#;

const UTILS: &str = r#""""Helpers."""


def format_money(amount, currency="EUR"):
    """Print an amount with its currency."""
    return f"{amount:.2f} {currency}"


def parse_date(text):
    return text.split("-")
"#;

const TEST_CART: &str = r#"from shop.cart import Cart


def test_total_applies_discount():
    cart = Cart()
    cart.add_item(object())
    assert cart.total() == 0


def test_total_of_the_cart_with_discount_and_items():
    cart = Cart()
    assert cart.total() == 0
"#;

const README: &str =
    "# Shop\n\nThe cart total, discounts, the cart and its items, shipping and payment.\n";

fn shop() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for (rel, text) in [
        ("shop/__init__.py", ""),
        ("shop/cart.py", CART),
        ("shop/payment.py", PAYMENT),
        ("shop/shipping.py", SHIPPING),
        ("shop/utils.py", UTILS),
        ("tests/test_cart.py", TEST_CART),
        ("README.md", README),
    ] {
        write(&root, rel, text);
    }
    common::git_at(&root, &["init", "-q"], 1_700_000_000);
    commit_all(&root, "the shop", 1_700_000_000);
    (dir, root)
}

/// An engine without the embedding model: the keyword and structure sides only.
fn engine() -> (tempfile::TempDir, Engine) {
    let home = tempfile::tempdir().unwrap();
    common::keyword_only(home.path());
    let engine = Engine::open_at(home.path()).unwrap();
    (home, engine)
}

fn find(engine: &Engine, root: &Path, query: &str) -> Value {
    call(engine, "code.find", json!({"path": root, "query": query}))
}

fn paths(out: &Value) -> Vec<String> {
    out["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap().to_string())
        .collect()
}

/// The name of the hit for the `fi`-th file.
fn hit_of(out: &Value, fi: usize) -> Option<String> {
    let file = &out["files"][fi]["path"];
    out["hits"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| &h["path"] == file)
        .map(|h| h["name"].as_str().unwrap().to_string())
}

#[test]
fn a_description_finds_the_file_and_the_definition() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    let out = find(
        &engine,
        &root,
        "The cart total is wrong: discounts are not applied to the items",
    );
    let files = paths(&out);
    assert_eq!(files[0], "shop/cart.py", "{out}");
    assert_eq!(hit_of(&out, 0).as_deref(), Some("total"), "{out}");
    // The test says the same words more often; the code comes first.
    let test = files.iter().position(|f| f == "tests/test_cart.py");
    assert!(test.is_none_or(|t| t > 0), "{out}");
    // Markdown is not code to change.
    assert!(!files.iter().any(|f| f.ends_with(".md")), "{out}");
    assert_eq!(out["used"], json!(["keyword"]), "{out}");
    let scores: Vec<f64> = out["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{out}");
}

#[test]
fn the_definitions_to_change_come_first_across_the_files() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    let out = find(
        &engine,
        &root,
        "Removing an item from the cart leaves it there, and the card is still charged for it",
    );
    let names = hit_names(&out);
    // The two definitions it speaks of, whichever file each is in, before the first
    // file's others; the methods before the class around them.
    let mut first_two = names[..2].to_vec();
    first_two.sort();
    assert_eq!(first_two, ["charge_card", "remove_item"], "{out}");
    let at = |name: &str| names.iter().position(|n| n == name);
    assert!(at("__init__").is_none_or(|i| i > 1), "{out}");
    assert!(at("Cart") > at("remove_item"), "{out}");
    // Every hit is of a listed file; a file can have several.
    let files = paths(&out);
    let cart = out["hits"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|h| h["path"] == "shop/cart.py")
        .count();
    assert!(cart >= 2, "{out}");
    for h in out["hits"].as_array().unwrap() {
        assert!(files.iter().any(|f| h["path"] == *f), "{out}");
    }
    // At most `limit` of them.
    let one = call(
        &engine,
        "code.find",
        json!({"path": root, "query": "remove an item from the cart", "limit": 1}),
    );
    assert_eq!(hit_names(&one), ["remove_item"], "{one}");
}

#[test]
fn words_meet_identifiers_by_their_subwords_and_stems() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    // "estimating", "deliveries" meet `estimate_delivery`; "weights" meets `weight`.
    let out = find(&engine, &root, "estimating deliveries for heavy weights");
    assert_eq!(paths(&out)[0], "shop/shipping.py", "{out}");
    assert_eq!(
        hit_of(&out, 0).as_deref(),
        Some("estimate_delivery"),
        "{out}"
    );
}

#[test]
fn a_name_written_as_code_finds_its_definition() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    // No other word of the description is in payment.py.
    let out = find(&engine, &root, "`refund` hangs forever on weekends");
    assert_eq!(paths(&out)[0], "shop/payment.py", "{out}");
    assert_eq!(hit_of(&out, 0).as_deref(), Some("refund"), "{out}");
    assert_eq!(out["used"], json!(["keyword", "structure"]), "{out}");
    let out = find(&engine, &root, "format_money crashes");
    assert_eq!(paths(&out)[0], "shop/utils.py", "{out}");
    assert_eq!(hit_of(&out, 0).as_deref(), Some("format_money"), "{out}");
}

#[test]
fn a_path_or_a_stack_trace_finds_its_file() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    let out = find(&engine, &root, "something in utils.py is off");
    assert_eq!(paths(&out)[0], "shop/utils.py", "{out}");
    let trace = "Traceback (most recent call last):\n  \
        File \"/srv/app/venv/lib/python3.11/site-packages/shop/payment.py\", line 15, in charge_card\n    \
        raise PaymentDeclined(\"the card was declined by the gateway\")\n\
        shop.payment.PaymentDeclined: the card was declined by the gateway";
    let out = find(&engine, &root, trace);
    assert_eq!(paths(&out)[0], "shop/payment.py", "{out}");
    assert_eq!(out["used"], json!(["keyword", "structure"]), "{out}");
}

#[test]
fn a_subdirectory_asks_the_repository_and_paths_stay_relative_to_it() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    let out = find(&engine, &root.join("shop"), "shipping cost by zone");
    assert_eq!(paths(&out)[0], "shop/shipping.py", "{out}");
}

#[test]
fn edits_are_seen_by_the_next_call() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    let query = "customs duties on international parcels";
    let before = find(&engine, &root, query);
    assert!(!paths(&before).contains(&"shop/customs.py".to_string()));
    write(
        &root,
        "shop/customs.py",
        "def customs_duty(parcel):\n    \"\"\"Import duties on international parcels.\"\"\"\n    return parcel.value * 0.2\n",
    );
    let out = find(&engine, &root, query);
    assert_eq!(paths(&out)[0], "shop/customs.py", "{out}");
    assert_eq!(hit_of(&out, 0).as_deref(), Some("customs_duty"), "{out}");
    // Changed: the words it had are gone, the new ones found.
    write(
        &root,
        "shop/customs.py",
        "def tariff(parcel):\n    return parcel.value\n",
    );
    let out = find(&engine, &root, "international duties");
    assert!(
        !paths(&out).contains(&"shop/customs.py".to_string()),
        "{out}"
    );
    let out = find(&engine, &root, "tariff of a parcel");
    assert_eq!(paths(&out)[0], "shop/customs.py", "{out}");
    assert_eq!(hit_of(&out, 0).as_deref(), Some("tariff"), "{out}");
    // Removed: never listed again.
    std::fs::remove_file(root.join("shop/customs.py")).unwrap();
    let out = find(&engine, &root, "tariff of a parcel");
    assert!(
        !paths(&out).contains(&"shop/customs.py".to_string()),
        "{out}"
    );
}

#[test]
fn the_same_question_gets_the_same_answer_byte_for_byte() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    let params = json!({"path": root, "query": "charge the card and give money back"}).to_string();
    let first = engine.call("code.find", &params).unwrap();
    let again = engine.call("code.find", &params).unwrap();
    // The first answer also says, once, that there is no model.
    assert!(first.contains("no embedding model"), "{first}");
    assert_eq!(again, engine.call("code.find", &params).unwrap());
    // A fresh index of the same files answers the same.
    let (_h2, other) = self::engine();
    assert_eq!(other.call("code.find", &params).unwrap(), first);
    assert_eq!(other.call("code.find", &params).unwrap(), again);
}

#[test]
fn limit_and_budget_cut_the_list() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    let query = "cart items discount payment card shipping weight money amount";
    let all = find(&engine, &root, query);
    assert!(paths(&all).len() >= 4, "{all}");
    let two = call(
        &engine,
        "code.find",
        json!({"path": root, "query": query, "limit": 2}),
    );
    assert_eq!(paths(&two), paths(&all)[..2].to_vec());
    // Every hit is of a file listed.
    for out in [&all, &two] {
        let files = paths(out);
        for h in out["hits"].as_array().unwrap() {
            assert!(files.iter().any(|f| h["path"] == *f), "{out}");
        }
    }
    // What an agent reads: hits point into the files by index, scores left out; a budget
    // cuts files and their hits together.
    let view = |max_tokens: Option<usize>| -> Value {
        let text = cc_search::agent::answer("code.find", &all.to_string(), max_tokens).unwrap();
        serde_json::from_str(&text).unwrap()
    };
    let whole = view(None);
    assert!(whole.get("used").is_none(), "{whole}");
    let listed = |out: &Value| -> Vec<String> {
        out["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                f["f"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{out}"))
                    .to_string()
            })
            .collect()
    };
    assert_eq!(listed(&whole), paths(&all));
    let small = view(Some(60));
    assert_eq!(small["truncated"], json!(true), "{small}");
    assert!(small.to_string().len() <= 240, "{small}");
    assert!(listed(&small).len() < paths(&all).len());
    for out in [&whole, &small] {
        let n = listed(out).len() as u64;
        for h in out["hits"].as_array().unwrap() {
            assert!(h["fi"].as_u64().unwrap() < n, "{out}");
        }
    }
}

#[test]
fn bad_questions_get_clear_errors() {
    let (_d, root) = shop();
    let (_h, engine) = engine();
    for query in ["", "   ", "?!. -- ()", "a the of"] {
        let err = call_err(&engine, "code.find", json!({"path": root, "query": query})).to_string();
        assert!(err.contains("no words"), "{query:?}: {err}");
    }
    let err = call_err(
        &engine,
        "code.find",
        json!({"path": root.join("missing"), "query": "cart"}),
    )
    .to_string();
    assert!(err.contains("missing"), "{err}");
    // A huge description is read up to its limit, and answers.
    let huge = "the cart total ".repeat(100_000);
    let out = find(&engine, &root, &huge);
    assert_eq!(paths(&out)[0], "shop/cart.py");
    // FTS5 syntax in the description is text.
    let out = find(&engine, &root, "NEAR(cart total) AND \"discount* OR -items");
    assert_eq!(paths(&out)[0], "shop/cart.py", "{out}");
}

/// An engine with the real all-MiniLM-L6-v2 (`None`: its tests are skipped on request).
fn engine_with_model() -> Option<(tempfile::TempDir, Engine)> {
    let model = common::model_dir()?;
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "config.toml",
        format!("[embed]\nmodel_dir = {:?}\n", model.display().to_string()),
    );
    let engine = Engine::open_at(home.path()).unwrap();
    Some((home, engine))
}

#[test]
fn the_model_finds_the_code_that_means_what_the_description_says() {
    let Some((_h, engine)) = engine_with_model() else {
        return;
    };
    let (_d, root) = shop();
    let (_k, keyword) = self::engine();
    // No word of these is in the code: by keywords nothing is found; by meaning, the
    // refund and the delivery estimate.
    for (query, file, definition) in [
        ("reimburse the buyer", "shop/payment.py", "refund"),
        (
            "how long until my package arrives",
            "shop/shipping.py",
            "estimate_delivery",
        ),
    ] {
        assert_eq!(paths(&find(&keyword, &root, query)), Vec::<String>::new());
        let out = find(&engine, &root, query);
        assert_eq!(paths(&out)[0], file, "{out}");
        assert_eq!(hit_of(&out, 0).as_deref(), Some(definition), "{out}");
        assert_eq!(out["used"], json!(["meaning"]), "{out}");
        assert!(out.get("warnings").is_none(), "{out}");
        // The same again, the vectors now from the cache.
        let params = json!({"path": root, "query": query}).to_string();
        let again: Value =
            serde_json::from_str(&engine.call("code.find", &params).unwrap()).unwrap();
        assert_eq!(again, out);
    }
}
