"""Families of phrasing the detector must hold on (privacy issue 9, round 3).

Each case is a new example of a *kind* of phrasing, written for this file (not copied from
the evaluation sets): the rule is for the family, so the examples vary the words, the
language and the punctuation. Benign lines of the same families must stay clean.
"""
from __future__ import annotations

import pytest

from memory_manager.privacy import CERTAIN, POSSIBLE, TOPIC, RULES, scan

#: (line, category, confidence of the finding of that category)
FOUND = [
    # passwords: key word, a few words, then 是/改成/is/->/=; typos and chat short forms
    ("实验室那台 NAS 的密码我昨天换成了 Kiwi!2719", "secret", CERTAIN),
    ("打印机后台密码刚重置了：Mq7#bluefin", "secret", CERTAIN),
    ("小区门禁密码（旧的作废）是 Tulip_8832", "secret", CERTAIN),
    ("『口令』：Ostrich$42zz", "secret", CERTAIN),
    ("the staging db pasword is Wren^55tide", "secret", CERTAIN),
    ("backup box pwd -> Gannet#3310", "secret", CERTAIN),
    ("pw for the camera nvr: Heron_7714x", "secret", CERTAIN),
    ("the new router pw is moss.4471 fyi", "secret", CERTAIN),
    ("gitea 的 mima: Lynx7_fern", "secret", CERTAIN),
    ("密码 was Plover%909 until yesterday", "secret", CERTAIN),
    ("jenkins admin: builder, pw Qx9!tern", "secret", CERTAIN),
    ("nas login → user admin, pass Vk3-rT8-pp", "secret", CERTAIN),
    ("passphrase for the laptop disk: 'copper lantern quiet meadow'", "secret", CERTAIN),
    # PINs, codes and combinations, digits in any script
    ("the storage unit combination is 41-08-27", "secret", CERTAIN),
    ("padlock combination for the gym locker is 7719", "secret", CERTAIN),
    ("gate code at the holiday flat is 4082", "secret", CERTAIN),
    ("信用卡 PIN 码是 ５５１９", "secret", CERTAIN),
    ("保险箱密码五八二零一九", "secret", CERTAIN),
    ("SIM 卡 PUK 码 80317744 抄在盒子上", "secret", CERTAIN),
    # value first, then what it is
    ("Marten_4412ZX <- 这是新的 wifi 密码", "secret", CERTAIN),
    ("`heron_8844KQ` is the current root password for the pi", "secret", CERTAIN),
    # mail client passwords, recovery codes
    ("126 邮箱的客户端授权码 QWPLMNHGTRFEDCBA 用来发周报", "secret", CERTAIN),
    ("outlook app password: abcd efgh ijkl mnop", "secret", CERTAIN),
    ("backup codes for my google account: 4f8k2-9d1x3 7hq2m-0pz81", "secret", CERTAIN),
    # command lines and config lines
    ("printf 'Hx8$mallard' | sudo -S apt upgrade", "secret", CERTAIN),
    ("sudo -S reboot <<< \"Pike!2204\"", "secret", CERTAIN),
    ("net user svc_backup Orca#5521 /add", "secret", CERTAIN),
    ("wpa_passphrase Attic-2G Zx8!meadowlark", "secret", CERTAIN),
    ("mosquitto_sub -h broker -u cam -P Rk2u9PqLm -t cams/#", "secret", CERTAIN),
    ("CREATE USER 'report'@'%' IDENTIFIED BY 'Tz8!robin';", "secret", CERTAIN),
    ("CREATE ROLE app WITH PASSWORD 'Lq4$harbor';", "secret", CERTAIN),
    ("location / { proxy_set_header Authorization \"Bearer a8Kd02LmQx7Zp4Rt9Vw1\"; }", "secret", CERTAIN),
    ("the rsync secrets file has mirror:Falcon#2207 in it", "secret", CERTAIN),
    ("mysql -u root -p 回车后输入 Gx7!walrus 即可", "secret", CERTAIN),
    ("redis 的 requirepass 为 Rd5$owlet", "secret", CERTAIN),
    ("smb: share-user / Bz9!quokka", "secret", CERTAIN),
    ("明文写着 Cx4#kestrel，得换掉", "secret", CERTAIN),
    ("Wi-Fi in the studio: SSID Loft_5G, key pine#8812cedar", "secret", CERTAIN),
    # keyed values: short key names, a colon glued to the key word, UUID keys
    ("高德地图 ak：Qm7Zx2Lp9Rt4Vw8Yb3Nc6Hd1Jf5Gs0K", "secret", CERTAIN),
    ("腾讯云 SK=Vb3Nc6Yh1Jd5Fs0Ga2EkQwErTyUiOpAs", "secret", CERTAIN),
    ("mailgun token for the alerts: 9c1f2e3d4b5a69788796a5b4c3d2e1f0", "secret", CERTAIN),
    ("qdrant key: 3f2c1b0a-9e8d-4c7b-a6f5-e4d3c2b1a098", "secret", CERTAIN),
    ("Zq8Lm3Xp7Rt4Vw9Yb2Nc6Hd1Jf5Gs0KaE", "secret", POSSIBLE),
    # identifiers after their name
    ("NINO: AB 12 34 56 C", "government_id", CERTAIN),
    ("ssn=219099999 from the payroll export", "government_id", CERTAIN),
    ("入境卡上护照号码填的是 E12345678", "government_id", CERTAIN),
    ("card 4111.1111.1111.1111 for the hotel deposit", "payment_card", CERTAIN),
    # a debit card given as the account to pay into
    ("押金转到 6222021234567890128，户名写我", "bank_account", CERTAIN),
    ("salary goes to 6222021234567890128 (ICBC, Xuhui branch)", "bank_account", CERTAIN),
    # contact data written to dodge scrapers; logs; local numbers
    ("write to lin.wei88 (at) proton (dot) me", "email", POSSIBLE),
    ("my backup mail is kz.tan2020 at yahoo dot com", "email", POSSIBLE),
    ("mailto:o.reyes91%40hotmail.com", "email", POSSIBLE),
    ("notify phone=8613912345678 status=sent", "phone", POSSIBLE),
    ("her whatsapp 9123 4567 (SG)", "phone", POSSIBLE),
    ("香港手提 6123 4567 有事打", "phone", POSSIBLE),
    # home paths
    ("rsync ~zhouyan/photos/ backup:/srv/", "home_path", POSSIBLE),
    # names with a cue
    ("maiden name on the form: Harriet Quill", "name", POSSIBLE),
    ("his name's Tobias Wrenfield, the plumber", "name", POSSIBLE),
    ("our landlady Mrs. Pemberton came by", "name", POSSIBLE),
    ("next of kin: Imogen Castell", "name", POSSIBLE),
    ("the deed was witnessed by Oswin Farrow", "name", POSSIBLE),
    ("数学老师是何嘉怡老师", "name", POSSIBLE),
    ("寄件人写「邓思远」", "name", POSSIBLE),
    ("问一下 Clara Voss 合同签了没", "name", POSSIBLE),
    ("机票上的名字是 CHEN Xiaoming", "name", POSSIBLE),
    ("guarantor: 钟雅琳", "name", POSSIBLE),
    # handles
    ("我的 vx: lemon_tea_0912", "handle", POSSIBLE),
    ("他的微信号是 hikingfan", "handle", POSSIBLE),
    ("follow her on instagram @mira.paints.nyc", "handle", POSSIBLE),
    ("my bilibili uid 348812290", "handle", POSSIBLE),
    ("my gitlab user is corvid-ops", "handle", POSSIBLE),
    ("she streams on twitch as nightowl_77", "handle", POSSIBLE),
    ("discord: pixelfox#0421 if you need me", "handle", POSSIBLE),
    ("wxid_a8k2m9x7q3 拉进群", "handle", POSSIBLE),
    # addresses in Hong Kong, Japanese and mainland long forms
    ("搬去了 沙田 大埔道 42 號 8 樓 B 室", "address", POSSIBLE),
    ("大阪府大阪市北区梅田3-1-1 の 1204", "address", POSSIBLE),
    ("寄到 杭州市 文一西路东段 88 号", "address", POSSIBLE),
    # schedules: weekday ranges, who is home alone
    ("我老公周二到周四晚上都值夜班", "schedule", POSSIBLE),
    ("周末保姆不在，只有外婆在家", "schedule", POSSIBLE),
    # sensitive topics about a person
    ("my dad takes 40mg atorvastatin at night", "health", TOPIC),
    ("she is on lisinopril since the spring", "health", TOPIC),
    ("我爸每天早上吃两片二甲双胍", "health", TOPIC),
    ("老婆甲状腺结节，下个月复查", "health", TOPIC),
    ("my cousin is hard of hearing and lip-reads", "health", TOPIC),
    ("奶奶血压 158/96，药量要调", "health", TOPIC),
    ("my brother's genome report flags BRCA2", "biometric", TOPIC),
    ("打卡机里存着全员的掌静脉模板", "biometric", TOPIC),
    ("Leo, aged 9, joins the robotics club", "minor", TOPIC),
    ("他儿子今年读初二", "minor", TOPIC),
    ("邻居因为受贿被判了五年", "legal", TOPIC),
    ("my flatmate is undocumented", "legal", TOPIC),
    ("今年副业挣了 3 万多，还没交税", "financial", TOPIC),
    ("房贷拖了两个月，手头没钱", "financial", TOPIC),
    ("my aunt votes Labour and canvasses for them", "protected", TOPIC),
    ("他是摩门教徒，不喝咖啡", "protected", TOPIC),
]

#: Benign lines of the same families: no finding, no notice.
CLEAN = [
    "the password field is now hashed with argon2id",
    "密码长度至少 12 位，90 天轮换一次",
    "密码字段为 password_hash，不存明文",
    "pass the tests before you merge",
    "pw reset links expire after 30 minutes",
    "vault kv get -field=password kv/app/mail",
    "password: op://Private/mail/password",
    "in the fixtures we use password \"fake-password-1\" with the mock server",
    "the combination of flags is documented below",
    "the idempotency key: 3f2c1b0a-9e8d-4c7b-a6f5-e4d3c2b1a098",
    "trace=3f2c1b0a-9e8d-4c7b-a6f5-e4d3c2b1a098",
    "d41d8cd98f00b204e9800998ecf8427e",
    "the demo uses (415) 555-0142 as a fake hotline",
    "演示视频里的客服电话用 (312) 555-0167",
    "VLAN 20 mgmt, 30 cameras",
    "血压计的蓝牙配对又失败了",
    "菜单标注了过敏原：芝士、坚果",
    "汇率 7.19，比昨天高一点",
    "正月初一不发版",
    "新人在 5 号楼 3 层工位办公",
    "考试在 3 号楼 204 教室",
    "地平线的渲染有锯齿",
    "the cancer of this repo is the god object in utils",
    "the bankruptcy module of the ledger demo needs tests",
    "the arrest-fire loop in the kiln controller tripped",
    "TLS fingerprint of the client hello is stable",
    "board game night: the bank went bankrupt in round 3",
    "Home Assistant turns the porch lights on at 22:15",
    "employees table gains a salary_band column",
    "the certificate is signed by Let's Encrypt",
    "和 Visual Studio 对比一下启动速度",
    "see ~/projects/notes for the draft",
    "ping me at standup",
]


@pytest.mark.parametrize("line,category,confidence", FOUND, ids=[f"f{i:03d}" for i in range(len(FOUND))])
def test_each_family_is_found(line, category, confidence):
    found = [f for f in scan(line) if f.category == category]
    assert found, (line, [(f.category, f.rule) for f in scan(line)])
    assert confidence in {f.confidence for f in found}


@pytest.mark.parametrize("line", CLEAN, ids=[f"c{i:03d}" for i in range(len(CLEAN))])
def test_benign_lines_of_the_same_families_stay_clean(line):
    assert [(f.category, f.rule) for f in scan(line)] == []


def test_one_builder_makes_the_phrase_and_bare_rules_of_each_key_word_family():
    for stem in ("password", "pin"):
        phrase, bare = RULES[stem + "_phrase"], RULES[stem + "_bare"]
        assert phrase.triggers == bare.triggers and phrase.source == bare.source
        assert phrase.category == bare.category == "secret"


def test_a_weak_key_word_needs_a_password_like_value():
    # "pass"/"pw" before an identifier is prose; before three character classes it is a password
    assert scan("pass utf-8 to the decoder") == []
    assert scan("pass base64-encoded bytes") == []
    assert [f.rule for f in scan("pass Rk7-mQ2-zz")] == ["password_bare"]


def test_a_card_number_named_as_a_card_stays_a_card():
    assert [f.category for f in scan("信用卡 6222021234567890128 有效期 09/29")] == ["payment_card"]
    # a debit card on a line naming its bank stays a card, and is the account it draws on too (round 15)
    assert [f.category for f in scan("借记卡 6222021234567890128，开户行工行")] == ["payment_card", "bank_account"]


def test_a_titled_chinese_name_needs_three_characters_and_not_a_job_word():
    assert scan("高级经理明天到") == []
    assert scan("任课老师请假了") == []
    assert {f.category for f in scan("去找邱雨桐医生复诊")} == {"name", "health"}
