BEGIN TRANSACTION;
CREATE TABLE actions (
	room_id VARCHAR(32) NOT NULL, 
	idx INTEGER NOT NULL, 
	seat INTEGER, 
	action INTEGER NOT NULL, 
	move VARCHAR(200) NOT NULL, 
	PRIMARY KEY (room_id, idx), 
	FOREIGN KEY(room_id) REFERENCES rooms (id)
);
INSERT INTO "actions" VALUES('Vi0z4dgr',0,0,0,'roll');
INSERT INTO "actions" VALUES('Vi0z4dgr',1,NULL,15,'d6');
INSERT INTO "actions" VALUES('Vi0z4dgr',2,1,0,'roll');
INSERT INTO "actions" VALUES('Vi0z4dgr',3,NULL,15,'d6');
INSERT INTO "actions" VALUES('Vi0z4dgr',4,0,1,'hold');
INSERT INTO "actions" VALUES('Vi0z4dgr',5,1,1,'hold');
INSERT INTO "actions" VALUES('Vi0z4dgr',6,0,0,'roll');
INSERT INTO "actions" VALUES('Vi0z4dgr',7,NULL,11,'d2');
INSERT INTO "actions" VALUES('Vi0z4dgr',8,1,0,'roll');
INSERT INTO "actions" VALUES('Vi0z4dgr',9,NULL,15,'d6');
INSERT INTO "actions" VALUES('2ckDy3lI',0,0,0,'a1');
INSERT INTO "actions" VALUES('2ckDy3lI',1,1,16,'c6');
INSERT INTO "actions" VALUES('2ckDy3lI',2,0,1,'a2');
INSERT INTO "actions" VALUES('2ckDy3lI',3,1,50,'h1');
INSERT INTO "actions" VALUES('2ckDy3lI',4,0,2,'a3');
INSERT INTO "actions" VALUES('2ckDy3lI',5,1,40,'f6');
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO "alembic_version" VALUES('0001');
CREATE TABLE chat (
	id INTEGER NOT NULL, 
	room_id VARCHAR(32) NOT NULL, 
	sender VARCHAR(40) NOT NULL, 
	text TEXT NOT NULL, 
	at VARCHAR(40) NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(room_id) REFERENCES rooms (id)
);
INSERT INTO "chat" VALUES(1,'Vi0z4dgr','ann','gg soon','2026-12-01T09:48:54.660+00:00');
INSERT INTO "chat" VALUES(2,'4Rlqqj3f','cid','anyone?','2026-12-01T09:48:57.515+00:00');
CREATE TABLE players (
	id INTEGER NOT NULL, 
	nickname VARCHAR(40) NOT NULL, 
	nickname_key VARCHAR(40) NOT NULL, 
	token_hash VARCHAR(64) NOT NULL, 
	created_at VARCHAR(40) NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (nickname_key), 
	UNIQUE (token_hash)
);
INSERT INTO "players" VALUES(1,'ann','ann','a86c92a95f42337c34a1c350bdf03829569aaa4f8d552e450fd849386a4a7be1','2026-12-01T09:48:53.292+00:00');
INSERT INTO "players" VALUES(2,'bob','bob','26b17b9121fd756a35d22448be1464a689afbe5a7513322ad6031b253f452952','2026-12-01T09:48:53.604+00:00');
INSERT INTO "players" VALUES(3,'cid','cid','c6bc07842e6b7786f0ed22434f7e909ccdf1b2da53caa1ab4eaf0a03dc8fea4b','2026-12-01T09:48:53.847+00:00');
INSERT INTO "players" VALUES(4,'Dora','dora','1abe0599182b0eddece3b1368751cab3d3622f8fa7cf755d73a19713a7981fa4','2026-12-01T09:48:54.207+00:00');
CREATE TABLE rooms (
	id VARCHAR(32) NOT NULL, 
	game VARCHAR(64) NOT NULL, 
	options TEXT NOT NULL, 
	status VARCHAR(16) NOT NULL, 
	seed BIGINT NOT NULL, 
	seats TEXT NOT NULL, 
	version INTEGER NOT NULL, 
	result TEXT, 
	outcome TEXT, 
	ended_by VARCHAR(16), 
	created_by VARCHAR(40) NOT NULL, 
	created_at VARCHAR(40) NOT NULL, 
	updated_at VARCHAR(40) NOT NULL, 
	PRIMARY KEY (id)
);
INSERT INTO "rooms" VALUES('Vi0z4dgr','testrace','{"goal": 12}','finished',48872007600994123,'[{"nickname": "ann", "player_id": 1, "bot": null}, {"nickname": "bob", "player_id": 2, "bot": null}]',10,'[-1.0, 1.0]','blue wins','rules','ann','2026-12-01T09:48:54.487+00:00','2026-12-01T09:48:54.770+00:00');
INSERT INTO "rooms" VALUES('2ckDy3lI','hula','{"size": 5, "pie": true}','finished',2891900020610791502,'[{"nickname": "bob", "player_id": 2, "bot": null}, {"nickname": "random bot", "player_id": null, "bot": "random"}]',6,'[-1.0, 1.0]','first resigned: second wins','resign','bob','2026-12-01T09:48:55.024+00:00','2026-12-01T09:48:56.003+00:00');
INSERT INTO "rooms" VALUES('dI6gA6Hf','testrace','{"goal": 40}','playing',4292361219653984085,'[{"nickname": "cid", "player_id": 3, "bot": null}, {"nickname": "random bot", "player_id": null, "bot": "random"}]',0,NULL,NULL,NULL,'cid','2026-12-01T09:48:56.251+00:00','2026-12-01T09:48:57.068+00:00');
INSERT INTO "rooms" VALUES('4Rlqqj3f','testrace','{"goal": 12}','waiting',2912428809229139109,'[{"nickname": "cid", "player_id": 3, "bot": null}, null]',0,NULL,NULL,NULL,'ann','2026-12-01T09:48:57.254+00:00','2026-12-01T09:48:57.392+00:00');
CREATE INDEX ix_rooms_status ON rooms (status);
CREATE INDEX ix_rooms_updated_at ON rooms (updated_at);
CREATE INDEX ix_chat_room_id ON chat (room_id);
COMMIT;
