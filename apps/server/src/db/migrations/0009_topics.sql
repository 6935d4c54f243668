CREATE TABLE "topic_collections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"topic_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topic_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"story_key" text NOT NULL,
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"url" text NOT NULL,
	"sources" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tokens" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"tracks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"score" double precision DEFAULT 0 NOT NULL,
	"prev_score" double precision,
	"trend" text DEFAULT 'new' NOT NULL,
	"snapshot" boolean DEFAULT false NOT NULL,
	"published_at" timestamp with time zone,
	"first_seen_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topic_maps" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"title" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topic_sources" (
	"source" text PRIMARY KEY NOT NULL,
	"last_fetched_at" timestamp with time zone NOT NULL,
	"ok" boolean NOT NULL,
	"error" text,
	"item_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topic_tracks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint,
	"parent_id" bigint,
	"name" text NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "topic_collections" ADD CONSTRAINT "topic_collections_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_collections" ADD CONSTRAINT "topic_collections_topic_id_topic_items_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topic_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_maps" ADD CONSTRAINT "topic_maps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_tracks" ADD CONSTRAINT "topic_tracks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "topic_collections_user_topic_idx" ON "topic_collections" USING btree ("user_id","topic_id");--> statement-breakpoint
CREATE UNIQUE INDEX "topic_items_story_key_idx" ON "topic_items" USING btree ("story_key");--> statement-breakpoint
CREATE INDEX "topic_items_score_idx" ON "topic_items" USING btree ("score");--> statement-breakpoint
CREATE INDEX "topic_items_last_seen_idx" ON "topic_items" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "topic_maps_user_updated_idx" ON "topic_maps" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "topic_tracks_user_idx" ON "topic_tracks" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "topic_tracks_parent_idx" ON "topic_tracks" USING btree ("parent_id");
--> statement-breakpoint
-- System tracks (赛道) with sub-tracks; keywords drive the jieba classification of hot topics. Edited later by the admin CLI.
INSERT INTO "topic_tracks" ("name", "keywords", "sort") VALUES
  ('美食', '["美食", "餐厅", "菜谱", "做饭", "小吃", "火锅", "奶茶", "咖啡", "外卖", "烘焙", "零食", "食品", "饮料", "预制菜"]'::jsonb, 1),
  ('母婴', '["母婴", "育儿", "宝宝", "婴儿", "孕妇", "怀孕", "奶粉", "生育", "儿童", "亲子", "幼儿园", "二胎"]'::jsonb, 2),
  ('职场', '["职场", "工作", "求职", "招聘", "面试", "裁员", "加班", "工资", "薪资", "打工人", "跳槽", "简历", "考公", "公务员", "就业"]'::jsonb, 3),
  ('科技数码', '["科技", "手机", "数码", "芯片", "人工智能", "AI", "大模型", "苹果", "华为", "小米", "电脑", "发布会", "机器人", "新能源", "电动车", "汽车", "5G", "卫星", "航天"]'::jsonb, 4),
  ('教育', '["教育", "高考", "考研", "学校", "学生", "老师", "大学", "中考", "留学", "考试", "作业", "开学", "录取", "双减", "学习"]'::jsonb, 5),
  ('旅行', '["旅行", "旅游", "景区", "酒店", "机票", "出游", "自驾", "攻略", "度假", "签证", "假期", "高铁", "露营", "民宿"]'::jsonb, 6),
  ('健康', '["健康", "医院", "医生", "疾病", "养生", "减肥", "健身", "睡眠", "疫苗", "流感", "感冒", "运动", "心理", "抑郁", "体检", "医保"]'::jsonb, 7),
  ('财经', '["财经", "股市", "A股", "基金", "理财", "房价", "楼市", "经济", "银行", "利率", "黄金", "消费", "GDP", "降息", "上市", "IPO", "比特币"]'::jsonb, 8),
  ('美妆', '["美妆", "护肤", "化妆", "口红", "面膜", "防晒", "彩妆", "香水", "医美", "穿搭", "时尚", "发型"]'::jsonb, 9),
  ('家居', '["家居", "装修", "家具", "收纳", "家电", "租房", "清洁", "改造", "软装", "智能家居"]'::jsonb, 10),
  ('娱乐', '["明星", "电影", "电视剧", "综艺", "演唱会", "票房", "官宣", "导演", "演员", "歌手", "动漫", "游戏"]'::jsonb, 11),
  ('体育', '["体育", "足球", "篮球", "NBA", "CBA", "奥运", "比赛", "冠军", "国足", "世界杯", "马拉松", "乒乓球", "网球"]'::jsonb, 12);
--> statement-breakpoint
INSERT INTO "topic_tracks" ("parent_id", "name", "keywords", "sort")
SELECT p."id", v.name, v.kw::jsonb, v.sort FROM (VALUES
  ('美食', '家常菜谱', '["菜谱", "家常菜", "做法", "食谱", "下饭"]', 1),
  ('美食', '探店', '["探店", "餐厅", "网红店", "打卡"]', 2),
  ('美食', '饮品甜点', '["奶茶", "咖啡", "甜品", "蛋糕", "烘焙"]', 3),
  ('母婴', '孕产', '["怀孕", "孕期", "产后", "孕妇", "分娩"]', 1),
  ('母婴', '育儿经验', '["育儿", "宝宝", "辅食", "早教"]', 2),
  ('母婴', '亲子活动', '["亲子", "儿童", "绘本", "玩具"]', 3),
  ('职场', '求职面试', '["求职", "面试", "简历", "招聘", "校招", "秋招", "春招"]', 1),
  ('职场', '职场成长', '["升职", "管理", "沟通", "职场"]', 2),
  ('职场', '副业', '["副业", "兼职", "自由职业"]', 3),
  ('科技数码', '手机', '["手机", "iPhone", "华为", "小米", "荣耀", "OPPO", "vivo", "鸿蒙"]', 1),
  ('科技数码', '人工智能', '["人工智能", "AI", "大模型", "ChatGPT", "算法", "机器人"]', 2),
  ('科技数码', '汽车出行', '["汽车", "电动车", "新能源", "自动驾驶", "车型"]', 3),
  ('教育', '升学考试', '["高考", "中考", "考研", "录取", "分数线", "志愿"]', 1),
  ('教育', '学习方法', '["学习", "笔记", "背单词", "效率"]', 2),
  ('教育', '留学', '["留学", "雅思", "托福", "签证"]', 3),
  ('旅行', '国内游', '["景区", "古镇", "自驾", "国内游", "高铁"]', 1),
  ('旅行', '出境游', '["出境", "签证", "免签", "海外"]', 2),
  ('旅行', '露营户外', '["露营", "徒步", "登山", "户外"]', 3),
  ('健康', '健身减脂', '["健身", "减肥", "减脂", "跑步", "运动"]', 1),
  ('健康', '养生', '["养生", "中医", "食疗", "睡眠"]', 2),
  ('健康', '心理健康', '["心理", "焦虑", "抑郁", "情绪"]', 3),
  ('财经', '理财投资', '["理财", "基金", "股票", "A股", "黄金", "存款"]', 1),
  ('财经', '楼市', '["房价", "楼市", "房贷", "买房", "房地产"]', 2),
  ('财经', '宏观经济', '["经济", "GDP", "CPI", "降息", "利率", "出口"]', 3),
  ('美妆', '护肤', '["护肤", "面膜", "防晒", "精华", "敏感肌"]', 1),
  ('美妆', '彩妆', '["化妆", "口红", "彩妆", "眼影", "粉底"]', 2),
  ('美妆', '穿搭', '["穿搭", "时尚", "衣服", "搭配"]', 3),
  ('家居', '装修', '["装修", "设计", "硬装", "软装", "改造"]', 1),
  ('家居', '收纳清洁', '["收纳", "整理", "清洁", "断舍离"]', 2),
  ('家居', '家电', '["家电", "空调", "冰箱", "洗衣机", "扫地机"]', 3),
  ('娱乐', '影视', '["电影", "电视剧", "票房", "导演", "演员", "剧集"]', 1),
  ('娱乐', '综艺音乐', '["综艺", "演唱会", "歌手", "音乐"]', 2),
  ('娱乐', '游戏动漫', '["游戏", "动漫", "电竞", "手游"]', 3),
  ('体育', '足球', '["足球", "国足", "世界杯", "中超", "欧冠"]', 1),
  ('体育', '篮球', '["篮球", "NBA", "CBA"]', 2),
  ('体育', '全民健身', '["马拉松", "跑步", "健身"]', 3)
) AS v(parent, name, kw, sort) JOIN "topic_tracks" p ON p."name" = v.parent AND p."user_id" IS NULL AND p."parent_id" IS NULL;
--> statement-breakpoint
INSERT INTO "point_costs" ("feature", "name", "point") VALUES ('topic_angles', '选题角度生成', 2) ON CONFLICT DO NOTHING;
