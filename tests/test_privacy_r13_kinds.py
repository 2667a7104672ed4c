"""Kinds the detector must hold on (privacy issue 9, round 13): written from a description of each kind.

The held-out set P of round 11 missed by kind (``bench/HELDOUT.md``, "Round 11"): multi-line benign notes
flagged (15 %), sensitive topics about a person (0.841), benign single lines (2.3 %). The lines below are
*other* phrasings of each kind, invented here in both languages (chat, typos, full-width, value first,
config forms), so that a rule passes only when it covers the kind, not a set's sentence. Each benign text
must give no finding at all; each private text the category named. Secret-shaped values are built at run
time (``tests/test_layout.py``).
"""
from __future__ import annotations

import pytest

from memory_manager.privacy import scan

# ---------------------------------------------------------------------------------------------------------
# Kind 1 (multi-line): a service's configuration block. Its user name is a program's account (a role name, a
# reference to a variable, the account of a data source), its password a reference; neither is a person's.
# ---------------------------------------------------------------------------------------------------------
CONFIG_BLOCKS = [
    "# config/database.yml (secrets from env)\nproduction:\n  adapter: postgresql\n  username: billing_ro\n"
    "  password: <%= ENV['DB_PASSWORD'] %>\n  host: db.internal",
    'module "rds" {\n  master_username = var.master_user\n  master_password = var.master_password\n  port = 5432\n}',
    'resource "azurerm_sql_server" "x" {\n  administrator_login          = local.admin_login\n'
    "  administrator_login_password = data.azurerm_key_vault_secret.sql.value\n}",
    "[database]\nuser = reporting\npassword = ${REPORT_DB_PASSWORD}\nhost = 127.0.0.1",
    "spring:\n  datasource:\n    url: jdbc:postgresql://10.0.3.7:5432/crm\n    username: crm_app\n"
    "    password: ${CRM_DB_PASSWORD}",
    "# 数据库配置（密码走环境变量）\nmysql:\n  username: report_reader\n  password: ${MYSQL_PWD}",
    "steps:\n  - uses: docker/login-action@v3\n    with:\n      username: ${{ secrets.DOCKER_USER }}\n"
    "      password: ${{ secrets.DOCKER_TOKEN }}",
]
#: ... while a person's account or a literal password in the same forms is still found.
CONFIG_PRIVATE = [
    ("my GitHub username is lin-dev88, add me to the org", "handle"),
    ("username: mike_chen88 (my old forum account)", "handle"),
    ("forum login\nusername: zhou.xiaoli\npassword: Qz!8mw2Lp#", "secret"),
    ('variable "db" {}\nresource "aws_db_instance" "main" {\n  password = "Tk9!vR2m#q"\n}', "secret"),
]

# ---------------------------------------------------------------------------------------------------------
# Kind 2 (multi-line): notes of a course, a lecture or a protocol, or a note that says it is about nobody:
# topic words on lines that name nobody are knowledge.
# ---------------------------------------------------------------------------------------------------------
COURSE_NOTES = [
    "药理学课堂笔记（第 6 讲）\n- 二甲双胍是 2 型糖尿病的一线用药\n- 高血压分级：收缩压 140-159 为 1 级",
    "Lecture 5 notes: cardiology basics\n- Hypertension stage 1: 130-139 systolic\n"
    "- Atrial fibrillation raises stroke risk",
    "法律课笔记：破产法\n- 破产重整与破产清算的区别\n- 刑事诉讼中取保候审的条件",
    "Contracts 101 notes\n- Chapter 11 lets a company reorganise\n- Bankruptcy filings are public records",
    "Nutrition class, week 3\n- Type 2 diabetes: general diet advice is to cut refined sugar\n"
    "- This is course material, not anyone's diagnosis",
    "心理学选修课复习要点\n- 抑郁症和焦虑症常共病\n- 认知行为疗法的基本步骤",
    "体温计蓝牙协议（公开文档）\n服务：Health Thermometer 0x1809\n特征：Temperature Measurement 0x2A1C",
    "Glucose profile, GATT\nService: Glucose 0x1808\nCharacteristic: Glucose Measurement 0x2A18",
    "示例病例（虚构，不含个人信息）\n主诉：头痛三天\n既往史：高血压",
]
COURSE_PRIVATE = [
    ("课程笔记（第 3 讲）\n我妈上周确诊了 2 型糖尿病，饮食这块要多看", "health"),
    ("Lecture 4 notes\nmy sister has epilepsy, skip the strobe demo", "health"),
    ("filed Chapter 7 bankruptcy last spring, discharge in May", "financial"),
    ("week 3 of chemo for my dad, he sleeps most of the day", "health"),
]

# ---------------------------------------------------------------------------------------------------------
# Kind 3 (multi-line): a group's programme (an outing, an agenda, a timetable): its times are the group's.
# ---------------------------------------------------------------------------------------------------------
GROUP_TIMES = [
    "部门团建安排\n第一天 07:45 公司门口集合出发，12:00 午饭\n第二天 09:00 漂流，16:30 返程",
    "Team offsite itinerary\nDay 1: bus leaves at 08:30, we arrive 11:00\nDay 2: hike 09:00-12:00",
    "团建行程（不含个人信息）\nDay1 高铁 08:00 出发，10:30 到\n集合点：公司 1 楼大堂",
    "课程表（初二 3 班）\n周一 08:00 语文\n周一 09:00 数学",
]
GROUP_PRIVATE = [
    ("团建那两天\n她 07:45 出门，孩子一个人在家", "schedule"),
    ("Team offsite itinerary\nmy wife is home alone from 08:00 to 18:00 those days", "schedule"),
]

# ---------------------------------------------------------------------------------------------------------
# Kind 4: figures in rows (a benchmark, a table): digits grouped as no numbering plan writes a phone.
# ---------------------------------------------------------------------------------------------------------
NUMBER_ROWS = [
    "benchmark results (ms)\n138 001 3800\n1380 0138 000\np50 12 p99 1380",
    "row counts: 138 001 3800 after the backfill",
    "1381 2345 678 三列分别是 东区 西区 北区",
]
NUMBER_PRIVATE = [
    ("手机 138 0013 8000", "phone"),
    ("新号码 138 0013 8000 存一下", "phone"),
    ("call me on 01380 013800 after six", "phone"),
    ("+44 1380 013800 is my landline", "phone"),
]


@pytest.mark.parametrize("text", CONFIG_BLOCKS + COURSE_NOTES + GROUP_TIMES + NUMBER_ROWS)
def test_benign_kind_gives_no_finding(text):
    assert [(f.category, f.rule) for f in scan(text)] == []


@pytest.mark.parametrize("text,category", CONFIG_PRIVATE + COURSE_PRIVATE + GROUP_PRIVATE + NUMBER_PRIVATE)
def test_private_kind_is_found_as_its_category(text, category):
    assert category in {f.category for f in scan(text)}


# ---------------------------------------------------------------------------------------------------------
# Kind 5: sensitive topics about a person (me, my X, a named person), in both languages: found as the topic.
# ---------------------------------------------------------------------------------------------------------
PERSON_TOPICS = [
    ("我最近惊恐发作很频繁", "health"),
    ("阿姨查出来胰腺癌，医生说最多半年", "health"),
    ("my height is 183 cm and I weigh 95 kg", "biometric"),
    ("我身高 165 体重 70kg", "biometric"),
    ("她身高一米六二，体重 48", "biometric"),
    ("Mia's blood type is O negative", "biometric"),
    ("爸爸是 AB 型血", "biometric"),
    ("Lily is 4 and still wets the bed", "minor"),
    ("the twins are 6, they get picked up at 3:15", "minor"),
    ("our girls are 5 and 7", "minor"),
    ("my husband is Romani", "protected"),
    ("Mark is being investigated by the SEC", "legal"),
    ("Ben is under investigation for fraud", "legal"),
    ("客户王总被经侦带走了", "legal"),
    ("filed Chapter 7 last year", "financial"),
    ("Dave has a gambling problem and lost his savings", "financial"),
    ("每个月给前妻 8000 抚养费", "financial"),
    ("he pays $900 a month in child support", "financial"),
    ("小陈被公司起诉了，说他泄露商业机密", "legal"),
]

# ---------------------------------------------------------------------------------------------------------
# Kind 6: the same words naming nobody: general knowledge, a law, a statistic, an organisation's state, a
# product's copy, a proper name, a crowd.
# ---------------------------------------------------------------------------------------------------------
NOBODY_TOPICS = [
    "the court case Oracle v. Google is about APIs",
    "depression angle of the antenna is 3 degrees",
    "基因组数据格式 FASTQ、BAM、VCF",
    "公积金基数每年 7 月调整",
    "破产重整是公司法的一个章节",
    "Face ID 的提示文案改成“使用面容 ID 解锁”",
    "the fingerprint of the server's host key changed",
    "HIV testing is free at public clinics",
    "未成年人保护法第 23 条",
    "糖尿病患者的饮食指南",
    "a DUI is a misdemeanor in most states",
    "student debt in the US totals 1.7 trillion",
    "blood type distribution in China: O 34%",
    "虹膜识别门禁的采购方案",
    "Gay-Lussac's law relates pressure and temperature",
    "Christian Bale's new film",
    "muslim-friendly restaurants near the office",
    "征信报告怎么查",
    "他们公司去年破产了",
    "the vendor filed for Chapter 11 last week",
    "商场里有很多小孩",
    "the age verification flow for minors",
    "糖尿病人能吃水果吗",
    "hypertension affects 1 in 3 adults",
    "credit score ranges from 300 to 850",
    "the bankruptcy court docket is public",
]

# ---------------------------------------------------------------------------------------------------------
# Kind 7 (single lines): a format shown, a document's number, an app's account, a thing's name, a container
# image's default user, a docs placeholder after a vendor prefix.
# ---------------------------------------------------------------------------------------------------------
AKID_PLACEHOLDER = "AKID" + "x" * 16
BENIGN_LINES = [
    "user@domain.tld 只是格式示例",
    "name@company.com 占位符",
    "address format: firstname.lastname@company.com",
    "发票代码 044031900111，发票号码 28371654",
    "合同号码 20261103 已归档",
    "我们的 bot 名字叫 Jarvis",
    "家里的猫名字叫 Mochi",
    "@github-actions[bot] commented",
    "@dependabot rebase",
    "/home/jovyan/work is the default dir in the Jupyter image",
    f"TENCENTCLOUD_SECRET_ID={AKID_PLACEHOLDER}",
]
PRIVATE_LINES = [
    ("my email is lin.xiaoyu88@163.com", "email"),
    ("我的名字叫李明", "name"),
    ("follow me on GitHub @lin-dev88", "handle"),
    ("房东电话号码 13912345678", "phone"),
]


@pytest.mark.parametrize("text,category", PERSON_TOPICS + PRIVATE_LINES)
def test_person_fact_is_found_as_its_category(text, category):
    assert category in {f.category for f in scan(text)}


@pytest.mark.parametrize("text", NOBODY_TOPICS + BENIGN_LINES)
def test_nobody_line_gives_no_finding(text):
    assert [(f.category, f.rule) for f in scan(text)] == []


# ---------------------------------------------------------------------------------------------------------
# Kind 8 (multi-line): structure, not statements: a schema's columns and keys, a table's header cells, a chat
# transcript's stamps, a policy, an article's excerpt, a list of works, release notes, a lottery draw, a
# test environment's account.
# ---------------------------------------------------------------------------------------------------------
STRUCTURE_NOTES = [
    "CREATE TABLE patients (\n  id SERIAL PRIMARY KEY,\n  diagnosis TEXT,\n  salary NUMERIC\n);",
    '{\n  "name": "string",\n  "diagnosis": "string",\n  "income": 0\n}',
    "| 月份 | 收入 |\n|---|---|\n| 1 | 4532 |",
    "[10:02] 张伟: 线上 502 了\n[10:03] 李娜: 我看下 nginx\n[10:05] 李娜: 重启好了",
    "10:02 <alice> prod is down\n10:03 <bob> I'm on it\n10:09 <bob> restarted",
    "请假制度（2026 版）\n- 病假需提供医院证明\n- 产假 158 天",
    "Leave policy\n- Sick leave: 10 days a year with a doctor's note\n- Parental leave: 16 weeks",
    "育儿文章摘抄\n- 3 岁孩子发脾气是正常的\n- 幼儿园入园前要练习自己吃饭",
    "观影清单\n《美丽心灵》— 精神分裂\n《雨人》— 自闭症\n《肖申克的救赎》— 监狱",
    "v2.4.1 release notes\n- fix: crash on iOS 17\n- feat: Face ID unlock",
    "双色球开奖\n第 2026128 期\n红球 03 11 18 24 29 33\n蓝球 07",
    "测试账号（测试环境）\n用户名：test01\n仅限 staging 使用",
]
STRUCTURE_PRIVATE = [
    ("| 姓名 | 情况 |\n|---|---|\n| 我妈 | 糖尿病，每天打胰岛素 |", "health"),
    ("[21:40] me: my dad was diagnosed with Parkinson's today", "health"),
    ("my income is 12k a month after tax", "financial"),
    ("梁凯被公司起诉了，下个月开庭", "legal"),
    ("Tom was sued by his former employer", "legal"),
    ("Uncle Raj's whole-genome VCF shows APOE e4/e4", "biometric"),
    ("my WeChat ID is lin_xiaoyu_1990", "handle"),
]


@pytest.mark.parametrize("text", STRUCTURE_NOTES)
def test_structure_gives_no_finding(text):
    assert [(f.category, f.rule) for f in scan(text)] == []


@pytest.mark.parametrize("text,category", STRUCTURE_PRIVATE)
def test_fact_in_structure_is_found(text, category):
    assert category in {f.category for f in scan(text)}


# ---------------------------------------------------------------------------------------------------------
# Kind 9 (secrets): the value first, then what it unlocks; a value echoed into a command that reads its
# password from stdin; a Chinese password in corner quotes after a set-verb. Values built at run time.
# ---------------------------------------------------------------------------------------------------------
PW = "Kx7#" + "pl22"
VALUE_FIRST = [
    f"{PW} is the unlock code for the garage keypad",
    f"{PW} is the password for the NAS",
    f"「{PW}」是我 Steam 的密码",
    f"{PW} 是公司 VPN 的口令",
    f"Apple ID 的密码我换成了「{PW}」",
    f"echo '{PW}' | docker login registry.example.org -u ops --password-stdin",
    f"printf '{PW}' | podman login quay.io -u me --password-stdin",
    f'echo "{PW}" | sudo -S apt update',
]
NOT_A_PASSWORD = [
    "echo $REGISTRY_TOKEN | docker login ghcr.io -u bot --password-stdin",
    "密码我改成了强密码，存在 1Password 里",
    "the password for the NAS is in the vault",
    "Password123 is the most common password",
    "echo 'hello world' | tee out.txt",
]


@pytest.mark.parametrize("text", VALUE_FIRST)
def test_value_first_password_is_a_secret(text):
    assert "secret" in {f.category for f in scan(text)}


@pytest.mark.parametrize("text", NOT_A_PASSWORD)
def test_talk_about_passwords_gives_no_finding(text):
    assert [(f.category, f.rule) for f in scan(text)] == []


# ---------------------------------------------------------------------------------------------------------
# Kind 10 (bank accounts): a Chinese bank's short name then 账户 and the account in groups; a payment app's
# receiving account (a mobile number or an e-mail address); a WhatsApp click-to-chat link's number; the
# number of a household register (户号).
# ---------------------------------------------------------------------------------------------------------
ACCOUNTS = [
    ("工资打到我农行账户 8220 9016 1033 6551 498 就行", "bank_account"),
    ("房租转到房东建行账户 6217 0000 1234 5678 901", "bank_account"),
    ("支付宝收款账户 18855173353，实名 陈**", "bank_account"),
    ("学费转我支付宝收款账号 lin.xiaoyu88@163.com", "bank_account"),
    ("微信支付收款账号 139 1234 5678", "bank_account"),
    ("ping me on https://wa.me/85253997651", "phone"),
    ("户口本户号 310115027391，户主是我", "government_id"),
]
NOT_ACCOUNTS = [
    "支付宝账号是什么格式",
    "农行账户的转账限额是多少",
    "https://wa.me/ is WhatsApp's click-to-chat link format",
    "户号是什么意思",
]


@pytest.mark.parametrize("text,category", ACCOUNTS)
def test_account_kind_is_found(text, category):
    assert category in {f.category for f in scan(text)}


@pytest.mark.parametrize("text", NOT_ACCOUNTS)
def test_account_words_alone_give_no_finding(text):
    assert [(f.category, f.rule) for f in scan(text)] == []


#: Kind 6, the other side: an organisation as the other party of a person's lawsuit is still the person's
#: matter (frozen corpus positive.tsv: 正在和前公司打官司).
ORG_AS_OTHER_PARTY = [
    ("正在和前公司打官司", "legal"),
    ("跟老东家的公司还在打官司", "legal"),
    ("still in a lawsuit with my old company", "legal"),
    ("filed a lawsuit against the former employer's company", "legal"),
]


@pytest.mark.parametrize("text,category", ORG_AS_OTHER_PARTY)
def test_lawsuit_with_an_organisation_is_a_persons_matter(text, category):
    assert category in {f.category for f in scan(text)}
