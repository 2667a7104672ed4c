"""Kinds read from sets S and T once they were released as development sets (round 14).

Each case is our own phrasing of a kind the two sets showed: a seed phrase that repeats a word, a
year-shaped door code, a password a clause after its key word, a Windows home folder as a Chinese
Explorer shows it, a name given with its birth date (accents, Chinese), a name after "叫", a refused
visa or an immigration hearing. The benign side: coordinates of a public place, a hospital system
called HIS, a library called ICU upgraded to a version.
"""
from __future__ import annotations

import pytest

from memory_manager.privacy import scan


def _found(text: str) -> set[tuple[str, str]]:
    return {(f.category, f.confidence) for f in scan(text)}


@pytest.mark.parametrize("text, expected", [
    ("wallet seed phrase: orbit canyon maple orbit velvet harbor tiger orbit lemon glide crisp fossil",
     {("secret", "certain")}),
    ("the key safe by the back door has code 1987, tell nobody", {("secret", "certain")}),
    ("网盘密码上周被盗了，现在是 Tiger@2291", {("secret", "certain")}),
    ("工作邮箱的口令是小写的 river-stone-5512 别弄错", {("secret", "certain")}),
    (r"E:\用户\欧阳明轩\文档\合同.docx", {("home_path", "possible")}),
    ("Zoë Brennan-Hart, born 3/11/1984", {("name", "possible")}),
    ("诸葛亮明 出生日期 1991-04-02", {("name", "possible")}),
    ("新来的会计叫王芳，下周一报到", {("name", "possible")}),
    ("my brother's F-1 got revoked last month", {("legal", "topic")}),
    ("she has an immigration court date in March", {("legal", "topic")}),
    ("他去年被拒签了两次", {("legal", "topic")}),
    ("student Priya Raman asked for an extension", {("name", "possible")}),
    ("interpreter of record: Tomás Ibarra", {("name", "possible")}),
    ("patient in room 4 is Harold Finch", {("name", "possible")}),
    ("my brother's IVA was approved last week", {("financial", "topic")}),
    ("she is behind on her allotment fees again", {("financial", "topic")}),
    ("舅舅的房子被银行拍卖了", {("financial", "topic")}),
])
def test_private_kinds_are_found(text, expected):
    assert _found(text) == expected


@pytest.mark.parametrize("text", [
    "seed phrase: word word word word word word word word word word word word",
    "the release year is 2019, the gate code changed in 2021",
    "密码长度改成了 12 位，现在是 v2.4.1 的规则",
    "Sydney Opera House forecourt is at 33.8568° S, 151.2153° E",
    "西湖断桥坐标 30.2590, 120.1490",
    "HIS 每天 02:30 跑对账",
    "libicu upgraded to 74.2, collation order changed",
    r"C:\Users\Public\Documents\setup.log",
    "rs429358 is a common SNP, listed in gnomAD",
    "see Smith et al. 2021 on genome-wide association of height",
    "给裁判文书网写的爬虫被封了",
    "the Student Council meets on Friday",
    "HTTPS 强制执行已经打开",
])
def test_benign_lines_get_nothing(text):
    assert _found(text) == set()


def test_coordinates_of_a_home_near_a_landmark_stay_private():
    assert _found("our flat is at 48.85837, 2.29448 right by the park") == {("address", "possible")}
