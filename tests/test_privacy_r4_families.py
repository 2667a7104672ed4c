"""Families of phrasing the detector must hold on (privacy issue 9, round 4).

Round 4's development set (``bench/privacy_corpus/independent-e.tsv``) and the misses of set D
named the kinds; every case here is a new phrasing written for this file, in other words, other
values and often the other language, so that a rule fixes a kind and not a line. Benign lines of
the same families must stay clean. Key material is assembled at run time (``tests/test_layout.py``
refuses secret-looking literals).
"""
from __future__ import annotations

import base64
import random
import time

import pytest

from memory_manager.privacy import CERTAIN, POSSIBLE, TOPIC, scan


def _b64_der(prefix: bytes, n: int = 90, seed: int = 4) -> str:
    """Base64 of ``prefix`` followed by ``n`` random bytes (a key body shaped like the real thing)."""
    rng = random.Random(seed)
    return base64.b64encode(prefix + bytes(rng.randrange(256) for _ in range(n))).decode()


#: DER openings: RSAPrivateKey (PKCS#1), PrivateKeyInfo (PKCS#8), ECPrivateKey (SEC1).
_PKCS1 = bytes.fromhex("308204a502010002820101")
_PKCS8 = bytes.fromhex("308204be020100300d06092a864886f70d0101010500")
_SEC1 = bytes.fromhex("307702010104")
#: SubjectPublicKeyInfo and a certificate: a SEQUENCE inside the outer one.
_SPKI = bytes.fromhex("30820122300d06092a864886f70d01010105000382010f00")
_CERT = bytes.fromhex("3082037730820260a003020102")

#: (line, category, confidence of the finding of that category)
FOUND = [
    # a full password word, a few words, then a *word* connector (is / 设成 / 改成)
    ("the recovery passphrase my sister chose for the vault is Amber-Fjord-2281", "secret", CERTAIN),
    ("our wifi password at the lake house was Pelican#5520", "secret", CERTAIN),
    ("the admin password nobody wrote down is now Sq4!quarry", "secret", CERTAIN),
    ("加密盘的 passphrase 我改成了 秋天的桂花2024#", "secret", CERTAIN),
    ("BIOS password 已设为 Vole$7781", "secret", CERTAIN),
    # "changed / reset / set ... password to X"
    ("reset the Plex password to Gx8-harbor-51 last night", "secret", CERTAIN),
    ("I set the garage door PIN to 6604", "secret", CERTAIN),
    ("updated mum's Netflix passcode to Otter!3390", "secret", CERTAIN),
    # Chinese: bracketed labels, 填成/写成, a device's verification code in capitals
    ("【密码】Hx7@lakeside 【用户】ops", "secret", CERTAIN),
    ("[口令] Falcon_8812! 记得别外传", "secret", CERTAIN),
    ("把 VPN 密码写成 Tq5%meadow 就能连上", "secret", CERTAIN),
    ("海康录像机的验证密码 KRWQTE 在标签上", "secret", CERTAIN),
    # command lines: single-dash pass options, user-then-password, here-strings, mysql -p-...
    ("jarsigner -keystore rel.jks -storepass Wq8xLm2pRt app.apk release", "secret", CERTAIN),
    ("openssl pkcs12 -export -in c.pem -passout pass:Kj7Hq2Lm9 -out c.p12", "secret", CERTAIN),
    ("keytool -importkeystore -srckeystore a.p12 -srcstorepass Pz4Wm8Qx", "secret", CERTAIN),
    ("rabbitmqctl change_password billing Nk3Lp9Qw2Zx7", "secret", CERTAIN),
    ("mosquitto_passwd -b /etc/mosquitto/pw cam01 Rv8Kz2Pq", "secret", CERTAIN),
    ("psql -h db -U app -W <<< 'Lm4!heron'", "secret", CERTAIN),
    ("mariadb -u ops -p <<< \"Zq2#kite\"", "secret", CERTAIN),
    ("mysqldump -uadmin -p-Xk4!pq9 shop > shop.sql", "secret", CERTAIN),
    # server directives with Chinese connectors
    ("slapd.conf 的 rootpw 改成了 Qz8!lark 之后重启", "secret", CERTAIN),
    ("keepalived auth_pass 用的是 Kp7Wz3Qm", "secret", CERTAIN),
    ("masterauth 设为 Vn5#Xq2w", "secret", CERTAIN),
    # bracketed key labels, Laravel's base64: prefix
    ("[api_key] Qw8Er5Ty2Ui9Op4As7Df1Gh6Jk3", "secret", CERTAIN),
    ("【密钥】Zx4Cv7Bn1Mq8Wr5Ty2Ui9Op6As3", "secret", CERTAIN),
    ("APP_KEY=base64:Hq2Lm9Xk4Pz7Wv1Rt8Yb5Nc3Jd6Fs0Ga2Ek/Qw=", "secret", CERTAIN),
    # user/password with no login word: four character classes
    ("测试库 sa/Kx9#mQ2v!Lp 先别改", "secret", CERTAIN),
    ("pi/Wd7$Rk2@nq for the garden sensor box", "secret", CERTAIN),
    ("postgres/Ty6^Bn3&mQ on the reporting replica", "secret", CERTAIN),
    # a checksum-valid ID after a pass word is the ID
    ("S-Pass holder, pass: S1234567D", "government_id", CERTAIN),
    ("visitor pass = T0123456G issued at the lobby", "government_id", CERTAIN),
    ("Employment Pass: G1234567X, renew in May", "government_id", CERTAIN),
    # a card to pay money onto, named as a card
    ("报销打到那张卡 6222021234567890128 就行", "payment_card", CERTAIN),
    ("refund to this card please: 4539 1488 0343 6467", "payment_card", CERTAIN),
    ("工资卡换了，这张卡 6217000010001234569 以后收款", "payment_card", CERTAIN),
]

#: DER private keys by structure, with and without a key word.
DER_FOUND = [
    "deploy box (base64 DER): " + _b64_der(_PKCS1),
    "粘一下备份里的那段 " + _b64_der(_PKCS8, seed=5) + " 用完就删",
    _b64_der(_SEC1, n=60, seed=6),
]
#: Public keys and certificates stay clean, key word or not.
DER_CLEAN = [
    "public key: " + _b64_der(_SPKI),
    "the server cert body " + _b64_der(_CERT, seed=7),
    "公钥 " + _b64_der(_SPKI, seed=8),
]

#: Round 4, second part: names, handles, places, routines and topics (new phrasings, both languages).
FOUND_PERSONAL = [
    # a name after a name cue (English cue words, Chinese or accented names)
    ("patient name on the referral: Joaquín Ibarra", "name", POSSIBLE),
    ("her maiden name is Östberg", "name", POSSIBLE),
    ("birth name 是 赵雨桐，后来改过", "name", POSSIBLE),
    ("the seller is actually named Priya Raman", "name", POSSIBLE),
    # relation words: ex, fiancé(e), co-founder, buyer, in-laws; honorifics
    ("my ex-fiancé, Tomás Lindqvist, kept the ring", "name", POSSIBLE),
    ("co-founder Hannah Okafor owns 40 percent", "name", POSSIBLE),
    ("my sister-in-law Beatriz Duarte will bring the cake", "name", POSSIBLE),
    ("please forward it to Ms. Adaeze Nwosu at the clinic", "name", POSSIBLE),
    ("Dr. Kowalczyk moved my appointment", "name", POSSIBLE),
    # romanised Chinese names in English text
    ("Huang Zixuan from accounting approved it", "name", POSSIBLE),
    ("Xu Lei said the lease ends in June", "name", POSSIBLE),
    ("call Deng Yiran before noon", "name", POSSIBLE),
    # Chinese names after a person noun or 叫
    ("收货人：郑书瑶，电话见订单", "name", POSSIBLE),
    ("这次的担保方负责人是蒋文博", "name", POSSIBLE),
    ("【紧急联系人】司马晓彤", "name", POSSIBLE),
    ("新来的 PM 叫 潘雨萱，周一入职", "name", POSSIBLE),
    ("患者的真实姓名是骆家明，病历上写的化名", "name", POSSIBLE),
    # handles: game platforms, Reddit, profile URLs, Chinese set-verbs
    ("add me on Xbox, gamertag id: 2535412349876", "handle", POSSIBLE),
    ("Switch 好友码 SW-1234-5678-9012 欢迎加", "handle", POSSIBLE),
    ("she posts as u/quiet_heron_77 on r/gardening", "handle", POSSIBLE),
    ("my steam profile: steamcommunity.com/id/lazy_otter_42", "handle", POSSIBLE),
    ("我的 github 主页是 github.com/zhao-yt-dev", "handle", POSSIBLE),
    ("her Twitch is twitch.tv/mochi_bakes_live", "handle", POSSIBLE),
    ("抖音号已改为 tangtang_0612", "handle", POSSIBLE),
    ("twitter handle for the new hire is @lena_codes", "handle", POSSIBLE),
    # places: hemisphere coordinates, ordinal streets, Canadian postcodes
    ("our allotment is at 51.50722 N, 0.12750 W", "address", POSSIBLE),
    ("the farmhouse: 43°39'N 79°23'W, gate on the left", "address", POSSIBLE),
    ("mail it to 1200 East 9th Street, Cleveland", "address", POSSIBLE),
    ("she moved to 77 N 3rd Ave last week", "address", POSSIBLE),
    ("postcode for my flat is ON M5V 2T6", "address", POSSIBLE),
    # a person's routine: route from home, alone from X, weekday lists in Chinese
    ("每天 6:40 离家，坐地铁到公司", "schedule", POSSIBLE),
    ("my dad is alone until 6 pm on weekdays", "schedule", POSSIBLE),
    ("周一周三晚上我都在健身房，家里没人", "schedule", POSSIBLE),
    ("周六、周日上午我去上钢琴课", "schedule", POSSIBLE),
    # topics in plain phrasing
    ("Maya paid with a palm scan at the gym entrance", "biometric", TOPIC),
    ("the bank enrolled my hand geometry for the vault door", "biometric", TOPIC),
    ("Leo turned 9 and starts a new school in March", "minor", TOPIC),
    ("Ava's report card says she needs help with maths", "minor", TOPIC),
    ("he is in grade 4 at the local primary", "minor", TOPIC),
    ("Samir is a devout Zoroastrian and fasts on those days", "protected", TOPIC),
    ("my uncle is a Labour Party member since the 90s", "protected", TOPIC),
    ("she voted Leave and regrets it", "protected", TOPIC),
    ("Jordan goes by they/them now, please update the roster", "protected", TOPIC),
    ("Priyanka helped with the unionization vote at the warehouse", "protected", TOPIC),
    ("他的男朋友下个月搬过来", "protected", TOPIC),
    ("the new driver is Kurdish and speaks little English", "protected", TOPIC),
    ("my cousin's immigration status is still pending", "protected", TOPIC),
    ("房东要把我们告上法庭", "legal", TOPIC),
    ("被前合伙人告了，下周开庭", "legal", TOPIC),
    ("they cut her hours after she complained", "financial", TOPIC),
    ("his life savings went into the restaurant", "financial", TOPIC),
    ("表哥写了借条，借了 3 万", "financial", TOPIC),
    ("客服给王女士录了声纹，她本人同意了", "biometric", TOPIC),
]

CLEAN_PERSONAL = [
    "project name: Copper Finch",
    "the staging cluster is called Blue Marlin now",
    "our dog is named Captain Biscuit",
    "the final boss is called Queen Morrow and has two phases",
    "Mr. Bean season 1 is on the list for Friday",
    "叫外卖之前先问一下大家",
    "叫王师傅来修一下空调",
    "Long Island traffic was bad",
    "see github.com/rust-lang/rust for the compiler",
    "github.com/features/actions explains the runners",
    "the tile server lives at 47.61 and the job id is 122.33",
    "v1.2.3 is on grade 4 of the rollout plan",
    "the SQL uses UNION ALL across both tables",
    "Python is 3 times faster here after the fix",
    "周一周三的构建任务由 cron 跑，不用人管",
]


CLEAN = [
    # a password *word* that names another thing, with a free gap
    "the password policy we ship is NIST-800-63B",
    "the password manager the team picked is 1Password",
    "密码长度我改成了 16 位",
    # placeholders in Chinese docs
    "config.sample 里 SMTP_PASSWORD= 待填，部署时由运维填写",
    ".env 的 REDIS_PASSWORD= 留空即可，本地不需要",
    "密码: 你的密码（示例）",
    # a prompt flag followed by Chinese prose
    "mysql -u root -p，然后按提示输入",
    "mysqldump -u ops -p；再输一次密码",
    # a PEM header named in a sentence
    "a private key file starts with -----" + "BEGIN RSA PRIVATE KEY----- and has 25 lines",
    "私钥文件以 -----" + "BEGIN EC PRIVATE KEY----- 开头，不要发到群里",
    "if you see -----" + "BEGIN OPENSSH PRIVATE KEY----- in a log, rotate it",
    # documentation numbers in a line about docs or tests
    "测试用卡号 4000 0000 0000 0077 会触发风控",
    "the parser spec uses NL91 ABNA 0123 4567 89 as its sample",
    "unit test: phone validator must reject 234-567-8901 in the demo form",
    # machine identities
    "scheduler@reporting-prod.iam.gserviceaccount.com owns the bucket",
    "Co-authored-by: docs-bot <41898282+docs-bot@users.noreply.github.com>",
    "mail from svc-backup@corp-infra.io means the nightly run failed",
    "/home/buildkite-agent/.ssh holds the deploy key path only",
    "the unit runs from /home/deploy-bot/app",
    # redis-cli -p is a port; YAML secret tags
    "redis-cli -h cache -p 6380 info replication",
    "keydb-cli -p 6390 --scan",
    "  db_password: !vault |",
    "api_password: !secret grafana_pw",
    # paths with @ and # are not user/password
    "assets/logo@3x.PNG replaced by an SVG",
    "pinned org/tool@V2x1 in the workflow",
    "fixed upstream in vendor/Repo#4512 last week",
    # sensitive words in a technical sense
    "Info.plist 需要 NSCameraUsageDescription，人脸识别 SDK 才能启动",
    "FaceMatchService.swift calls the fingerprint API only when enrolled",
    "跑比对之前先下载 GRCh38 参考基因组",
    "aligned the reads against hg19 to compare with the public dataset",
    "行业报告里前端岗位工资中位数是 2.1 万",
    "the salary survey shows median pay up 4% for SREs",
    "节假日安排里加上古尔邦节和排灯节",
    "passkeys let platform authenticators use a fingerprint locally",
    "the glucose monitor simulator firmware needs an update",
    "the crawler went bankrupt on retries after the quota ran out",
    "测试数据用“某某省某某市某某区”这样的假地址",
    # a factory's shift pattern, not a person's routine
    "三班倒：早班 6:00-14:00，中班 14:00-22:00，夜班 22:00-6:00",
    # a form's password field
    "the login form's password field needs autocomplete=new-password",
]


@pytest.mark.parametrize("line,category,confidence", FOUND, ids=[f"f{i:03d}" for i in range(len(FOUND))])
def test_each_family_is_found(line, category, confidence):
    found = [f for f in scan(line) if f.category == category]
    assert found, (line, [(f.category, f.rule) for f in scan(line)])
    assert found[0].confidence == confidence


@pytest.mark.parametrize("line", DER_FOUND, ids=["pkcs1", "pkcs8-zh", "sec1-alone"])
def test_a_private_key_is_found_by_its_der_structure(line):
    assert [(f.category, f.confidence) for f in scan(line)] == [("secret", CERTAIN)]


@pytest.mark.parametrize("line", DER_CLEAN, ids=["spki", "cert", "spki-zh"])
def test_public_keys_and_certificates_are_not_private_keys(line):
    assert scan(line) == []


@pytest.mark.parametrize("line", CLEAN, ids=[f"c{i:03d}" for i in range(len(CLEAN))])
def test_benign_lines_of_the_same_families_stay_clean(line):
    assert scan(line) == [], [(f.category, f.rule, f.excerpt) for f in scan(line)]


def test_a_made_up_card_outside_a_test_line_is_still_a_card():
    # the documentation model needs both: a made-up digit run *and* a line about docs or tests
    assert [f.category for f in scan("card 4000 0000 0000 0077 for the hotel")] == ["payment_card"]
    assert [f.category for f in scan("测试卡号 4539 1488 0343 6467 是真卡，别用")] == ["payment_card"]


def test_the_free_gap_stays_linear_on_a_long_adversarial_line():
    # "password" then thousands of words and no connector: each start tries at most 48 characters
    line = "password " + "word " * 4000 + "end"
    start = time.process_time()
    assert not [f for f in scan(line) if f.category == "secret"]
    assert time.process_time() - start < 2.0


@pytest.mark.parametrize("line,category,confidence", FOUND_PERSONAL,
                         ids=[f"p{i:03d}" for i in range(len(FOUND_PERSONAL))])
def test_each_personal_family_is_found(line, category, confidence):
    found = [f for f in scan(line) if f.category == category]
    assert found, (line, [(f.category, f.rule) for f in scan(line)])
    assert found[0].confidence == confidence


@pytest.mark.parametrize("line", CLEAN_PERSONAL, ids=[f"q{i:03d}" for i in range(len(CLEAN_PERSONAL))])
def test_benign_lines_of_the_personal_families_stay_clean(line):
    assert scan(line) == [], [(f.category, f.rule, f.excerpt) for f in scan(line)]
