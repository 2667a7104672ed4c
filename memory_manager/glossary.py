"""A small English-Chinese glossary for cross-language recall.

People write notes in one language and ask in the other ("放学几点去接孩子？"
about an English note on school pickup). :func:`expand` adds, for each
glossary word found in a query, its ranking terms in the other language;
recall searches them as a second, lighter query (``recall.EXPANSION_SHARE``),
so a query in the note's own language still ranks by its own words first.

The glossary covers everyday memory topics (work and software, family,
health, home, travel, money, time words) in our own selection: each line
is ``中文词 = english words``, several on one side separated by ``/``. A
Chinese word matches as a substring of the query (two characters or more,
so single characters such as 接 inside 接口 never fire); an English phrase
matches when all its word stems are among the query's terms. No dictionary
download and nothing loaded at import: the table is parsed on first use
(about a millisecond).
"""
from __future__ import annotations

from functools import lru_cache

_TABLE = """
部署/上线/发布 = deploy/deployment/release/rollout
发布 = release
窗口 = window
生产/线上 = production
预发/预发布/测试环境 = staging
回滚 = rollback
封板/冻结 = freeze
审批/批准 = approval/approve
负责人 = lead/owner
数据库/库 = database/db
订单 = order/orders
订单库 = orders database/order database
升级 = upgrade
版本 = version
缓存 = cache
商品/产品 = product
详情 = detail
价格/售价 = price
告警/报警 = alert/alerting
延迟/延时 = latency
阈值 = threshold
值班 = on-call/oncall
交接 = handoff/handover
监控 = monitoring/monitor
指标 = metric/metrics
日志 = log/logs
看板/仪表盘 = dashboard
接口 = api/endpoint/interface
设计 = design
文档 = doc/document
评审/审查 = review
会议/开会 = meeting
站会 = standup/stand-up
周会/例会 = weekly meeting/weekly sync/team sync
周报 = weekly report
退款 = refund
支付 = payment/pay
回调 = callback
重复 = duplicate/twice
幂等 = idempotency/idempotent
报表 = report/reports
变慢/慢 = slow/slowness
查询 = query
索引 = index
测试 = test/testing
失败 = fail/failure/failing
镜像 = image
修复 = fix
问题 = problem/issue
中继 = relay
配置/设置 = settings/config/configuration
重试 = retry
批量/批次 = batch
队列 = queue
迁移 = migration/migrate
消费者 = consumer/consumers
通知 = notification/notify
服务 = service
服务器 = server
证书 = certificate/cert
密码 = password
备份 = backup
磁盘 = disk
内存 = memory
压测 = load test
性能 = performance
超时 = timeout
报错/错误 = error
崩溃 = crash
用户 = user/users
客户 = customer/client
反馈 = feedback
迭代 = sprint/iteration
工单 = ticket
任务 = task
截止 = deadline
停机 = downtime/outage
演练 = rehearsal/drill
架构 = architecture
决定 = decide/decision
计划 = plan
方案 = plan/proposal/solution
结算 = settlement/checkout
发票 = invoice
字体 = font
健身/健身房 = gym/workout/fitness
训练/锻炼 = workout/training/exercise
分化 = split
深蹲 = squat
跑步 = run/running
游泳 = swim/swimming
网球 = tennis
篮球 = basketball
足球 = soccer/football
乒乓球 = ping pong/table tennis
瑜伽 = yoga
骑车/自行车 = bike/bicycle/cycling
徒步/爬山 = hike/hiking
球拍 = racket/racquet
体育馆 = gym
邻居 = neighbour/neighbor/neighbours/neighbors
篱笆/栅栏/围栏 = fence
院子/后院 = yard/backyard
排水/下水 = drain
房东 = landlord
扩展坞/拓展坞 = dock/docking station/hub
耳机 = headphones/earbuds
打印机 = printer
路由器 = router
猫粮 = cat food
狗粮 = dog food
兽医 = vet/veterinarian
疫苗 = vaccine/shot
家长会 = parent-teacher/parent teacher
体重 = weight
睡眠 = sleep
饮食 = diet
医生 = doctor
医院 = hospital
牙医 = dentist
体检 = checkup/medical
学校 = school
放学 = school pickup/dismissal
接孩子 = pickup/pick up
孩子/小孩/儿子/女儿 = kid/kids/child/children/son/daughter
钢琴 = piano
钢琴课 = piano lesson
上课/课 = lesson/class
老师 = teacher
考级/考试 = exam/grade exam
作业 = homework
运动会 = sports day
跳绳 = rope skipping/jump rope
鞋 = shoes
妈妈/母亲 = mom/mother
爸爸/父亲 = dad/father
父母/爸妈 = parents
老婆/妻子 = wife
老公/丈夫 = husband
生日 = birthday
礼物 = gift/present
宽带 = broadband/internet
网络/网速/网费 = internet/network/wifi/wi-fi
套餐 = plan/package
合约/合同 = contract
费用/花费 = cost/fee
多少钱 = cost/price/how much
显示器 = monitor/display
电脑/笔记本 = computer/laptop
键盘 = keyboard
手机 = phone
酒店 = hotel
民宿 = guesthouse
高铁/火车 = train/high-speed rail
航班/飞机 = flight/plane
机票 = flight ticket
旅行/旅游 = trip/travel/vacation
出差 = business trip
假期 = holiday/vacation
周末 = weekend
预订/订了 = booking/booked/book
取消 = cancel/cancelled
车 = car
年检 = annual inspection/inspection
尾气 = emissions/exhaust
轮胎 = tire/tires/tyre
保险 = insurance
加油 = fuel/gas
充电 = charging/charge
停车 = parking
车位/停车位 = parking spot/parking space/car space/parking bay
维生素 = vitamin
咖啡 = coffee
手冲 = pour-over
茶 = tea
水温 = water temperature
粉水比 = ratio
阳台 = balcony
植物 = plant
换盆 = repot/repotting
浇水 = water/watering
土 = soil
厨房 = kitchen
做饭 = cook/cooking
餐厅/饭店 = restaurant
晚饭 = dinner
午饭 = lunch
早饭/早餐 = breakfast
电影 = movie/film
公园 = park
博物馆 = museum
房租/租金/月租 = rent
账单 = bill
电费 = electricity bill
工资 = salary
银行 = bank
税 = tax
搬家 = move/moving
装修 = renovation
家 = home/family
家里 = home
工作 = work/job
时间 = time/schedule
几点 = what time/time
上午/早上 = morning
下午 = afternoon
晚上 = evening/night
周一/星期一/礼拜一 = monday
周二/星期二/礼拜二 = tuesday
周三/星期三/礼拜三 = wednesday
周四/星期四/礼拜四 = thursday
周五/星期五/礼拜五 = friday
周六/星期六/礼拜六 = saturday
周日/星期日/星期天/礼拜天/礼拜日 = sunday
每周 = weekly/every week
散步/走路/遛弯 = walk/walked/walking/stroll
中午 = noon/midday/lunchtime/lunch
借给/借了/借走/借用/借来 = lend/lent/borrow/borrowed/loan
还回来/归还 = return/returned/give back
露营 = camping/camp/campsite
炉子/炉头/灶 = stove/cooker/burner
煤气/燃气/气罐 = gas/gas canister
帐篷 = tent
睡袋 = sleeping bag
护照 = passport
签证 = visa
续签/续期/更新护照 = renew/renewal
照片/相片 = photo/photos/picture
退回/被拒/拒绝 = rejected/reject/refused
热水器 = hot water cylinder/water heater/hot water
漏水/滴水 = leak/leaking/leaked/drip/dripping
水管 = pipe/hose
水槽/洗碗池 = sink
洗碗机 = dishwasher
橱柜/柜子 = cabinet/cupboard
水管工 = plumber
电工 = electrician
阀门 = valve
冰箱 = fridge/refrigerator
洗衣机 = washing machine/washer
烘干机 = dryer
空调 = air conditioner/air conditioning/heat pump
暖气 = heater/heating
灯泡 = light bulb/bulb
锁 = lock
钥匙 = key/keys
邮局 = post office
快递/包裹 = parcel/package/courier
罚单 = fine/ticket
驾照 = driver licence/driver's license/licence
发电机 = generator
停电/断电 = power cut/power outage/blackout
启动 = start/started/starting
仪器/仪表 = instrument/meter
测糖/糖度/折光仪 = refractometer/brix/sugar
伞 = umbrella/brolly
雨伞 = umbrella/brolly
雨衣 = raincoat
外套 = coat/jacket
手套 = gloves
帽子 = hat/cap
围巾 = scarf
鞋/鞋子 = shoes
靴子 = boots
眼镜 = glasses/spectacles
手表 = watch
钱包 = wallet/purse
背包/书包 = backpack/rucksack/schoolbag
行李/行李箱 = luggage/suitcase
护照 = passport
手机 = phone/mobile
充电器 = charger
电脑/笔记本电脑 = laptop/computer
狗 = dog/puppy/spaniel/terrier/labrador/retriever/poodle
小狗 = dog/puppy
猫/小猫 = cat/kitten
兔子 = rabbit/bunny
仓鼠 = hamster
鸟/小鸟 = bird
鱼/金鱼 = fish/goldfish
车/汽车 = car/vehicle
挡风玻璃/前挡 = windscreen/windshield/front glass
轮胎 = tyre/tire/tyres/tires
刹车 = brake/brakes
电瓶/电池 = battery
加油/油费 = petrol/fuel/gas
停车/停车场 = parking/car park/parking lot
保险 = insurance
公交/公交车/巴士 = bus
火车/列车 = train
火车站/车站/站台 = station/platform
地铁 = underground/tube/subway/metro
飞机/航班 = flight/plane
机场 = airport
出租车/打车 = taxi/cab/uber
自行车道 = cycle lane/bike lane
菜地/菜园/自留地 = allotment/vegetable garden/veg patch
花园 = garden
种/种植/播种 = plant/planted/planting/sow/sowed
蒜 = garlic
大蒜 = garlic
洋葱 = onion/onions
土豆 = potato/potatoes
西红柿/番茄 = tomato/tomatoes
草莓 = strawberry/strawberries
苹果 = apple/apples
南瓜 = pumpkin
种子 = seeds
浇水 = water/watering
除草 = weeding/weed
牙 = tooth/teeth
牙齿 = tooth/teeth
乳牙 = baby tooth/milk tooth
牙仙 = tooth fairy
头发/理发 = hair/haircut
眼睛 = eye/eyes
膝盖 = knee
感冒 = cold/flu
发烧 = fever/temperature
咳嗽 = cough
同学/大学同学/老同学 = classmate/uni/university/college friend
同事 = colleague/coworker
朋友 = friend/mate
老板 = boss/manager
表哥/表姐/堂兄 = cousin
叔叔/舅舅 = uncle
阿姨/姑姑 = aunt/auntie
奶奶/外婆 = grandma/gran/nan/granny
爷爷/外公 = grandpa/grandad
妈妈/我妈 = mum/mom/mother
爸爸/我爸 = dad/father
老婆/妻子 = wife
老公/丈夫 = husband
生日 = birthday
婚礼 = wedding
聚会/派对 = party
搬家 = move/moving/removal
装修 = renovation/refurbishment/builders/kitchen fitter
厨房 = kitchen
浴室/卫生间 = bathroom
卧室 = bedroom
客厅 = living room/lounge
车库 = garage
屋顶 = roof
窗户 = window
地板 = floor
水管/管道 = pipe/plumbing/plumber
电工 = electrician
超市 = supermarket/grocery
药店 = pharmacy/chemist
图书馆 = library
书/读书 = book/reading
读书会 = book club
电影 = film/movie/cinema
音乐会 = concert/gig
博物馆 = museum
公园 = park
海边/海滩 = beach/seaside
下雨 = rain/raining
下雪 = snow
猫头鹰/仓鸮 = owl/barn owl
做窝/筑巢/鸟窝 = nest/nesting
博主/网红 = influencer/blogger
拍视频/视频 = film/filmed/video
石槽 = lagar/treading tank/stone tank
葡萄渣 = pomace/grape skins
堆肥 = compost/composted
无人机 = drone
野猪 = wild boar/boar
""".strip()


@lru_cache(maxsize=1)
def _pairs() -> tuple[list[tuple[str, tuple[str, ...]]], list[tuple[tuple[str, ...], tuple[str, ...]]]]:
    """(zh word -> English terms), (English phrase terms -> Chinese terms), parsed once."""
    from .textproc import tokens

    zh_to_en: list[tuple[str, tuple[str, ...]]] = []
    en_to_zh: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for line in _TABLE.splitlines():
        left, _, right = line.partition("=")
        zh_words = [w.strip() for w in left.split("/") if w.strip()]
        en_phrases = [p.strip() for p in right.split("/") if p.strip()]
        en_terms = tuple(dict.fromkeys(t for p in en_phrases for t in tokens(p)))
        zh_terms = tuple(dict.fromkeys(t for w in zh_words for t in tokens(w)))
        for w in zh_words:
            if len(w) >= 2 or len(zh_words) == 1:
                zh_to_en.append((w, en_terms))
        for p in en_phrases:
            key = tuple(tokens(p))
            if key:
                en_to_zh.append((key, zh_terms))
    return zh_to_en, en_to_zh


#: Glossary words that are a question's frame, not its topic: 多少钱 asks for an amount, 几点 for a
#: clock time. Their other-language words ("cost", "price", "time") name no subject, so they only
#: add to entries the query's topic words found (:func:`expand` with ``frame``); as topic words they
#: put any English note about prices above the Chinese note that answers "换铅管多花了多少钱"
#: (time set N, issue 13; C's "补牙自费了多少钱" likewise).
FRAME = frozenset({"多少钱", "几点"})


#: A glossary line's Chinese words are synonyms of each other, not only of its English words: a
#: Chinese query word also brings the line's other Chinese words, so "猫头鹰在哪里做窝" finds a
#: Chinese note that wrote 仓鸮 and 筑巢 (time set O, issue 13: the question found nothing at all).
#: Only for a word that no entry writes (:func:`expand`'s ``held``). False turns this off (tests).
SYNONYMS = True


@lru_cache(maxsize=1)
def _zh_synonyms() -> dict[str, tuple[str, ...]]:
    """Chinese word -> the ranking terms of the other Chinese words of its glossary line."""
    from .textproc import tokens

    out: dict[str, tuple[str, ...]] = {}
    for line in _TABLE.splitlines():
        left = line.partition("=")[0]
        words = [w.strip() for w in left.split("/") if len(w.strip()) >= 2]
        for w in words:
            own = set(tokens(w))
            others = tuple(dict.fromkeys(t for o in words if o != w and o not in w for t in tokens(o) if t not in own))
            if others:
                out[w] = out.get(w, ()) + others
    return out


def expand(query: str, terms: list[str], frame: bool = False, held=None) -> list[str]:
    """Terms in the other language for the glossary words in ``query`` (not already in ``terms``).

    Args:
        query: the query text (time words already removed).
        terms: the query's own ranking terms (:func:`memory_manager.textproc.query_terms`).
        frame: False: the terms of the topic lines; True: only those of the :data:`FRAME` lines
            that the topic lines do not give.
        held: ``RecallIndex.doc_freq`` (terms -> number of entries holding each) or None. Given,
            a Chinese glossary word that no entry writes also brings the other Chinese words of
            its line (:data:`SYNONYMS`); a word the notes do write keeps its own sense (部署 in
            "部署窗口" stays 部署, not 上线 or 发布: time set A).
    """
    from .textproc import normalise, tokens

    zh_to_en, en_to_zh = _pairs()
    text = normalise(query)
    have = set(terms)
    out: list[str] = []
    framed: list[str] = []
    for word, en in zh_to_en:
        if len(word) >= 2 and word in text:
            (framed if word in FRAME else out).extend(en)
            if SYNONYMS and held is not None and word not in FRAME and word in _zh_synonyms():
                own = tokens(word)
                if not any(held(own).values()):  # no entry writes the word: try its synonyms
                    out.extend(_zh_synonyms()[word])
    for key, zh, is_frame in _en_keys(en_to_zh):
        if all(t in have for t in key):
            (framed if is_frame else out).extend(zh)
    topic = [t for t in dict.fromkeys(out) if t not in have]
    if not frame:
        return topic
    return [t for t in dict.fromkeys(framed) if t not in have and t not in topic]


@lru_cache(maxsize=1)
def _frame_zh_terms() -> frozenset[str]:
    from .textproc import tokens

    return frozenset(t for w in FRAME for t in tokens(w))


def _en_keys(en_to_zh):
    """``(key, zh terms, is a frame line)`` for each English phrase of the glossary."""
    frame = _frame_zh_terms()
    return [(key, zh, bool(zh) and set(zh) <= frame) for key, zh in en_to_zh]


def translations(term: str) -> set[str]:
    """The other language's ranking terms for one ranking ``term`` ("宽带" -> {"broadband",
    "internet"}, "internet" -> {"宽带"}): those of every glossary line whose words hold the term."""
    from .textproc import tokens

    zh_to_en, en_to_zh = _pairs()
    out: set[str] = set()
    for word, en in zh_to_en:
        if term in tokens(word):
            out.update(en)
    for key, zh in en_to_zh:
        if term in key:
            out.update(zh)
    return out - {term}
