import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 40, point 1: platform administrators are logins (user ids), never bare addresses (DESIGN
 * section 13). Administrator rights followed an address nobody had to own: an owner adding a team
 * member at a PLATFORM_ADMIN_EMAILS address, or a stranger registering an address granted before
 * its account existed, became an administrator.
 *
 * `logins.origin` records how a login came to be: `signup` (its person registered), `team` (an
 * owner or administrator made it with a password of their choosing), `invitation` (a newcomer
 * accepted an invitation), `sso` (an organization's single sign-on made it), `cli` (the
 * operator's `org:create`). `logins.email_verified_by_link_at`: when a mailed link (address
 * confirmation, password reset, invitation) first reached the address; `email_verified_at` alone
 * does not say so, as a login made for someone starts confirmed. Only a `signup` login confirmed
 * by a link is an administrator by its address.
 *
 * Existing rows. A login's origin is read from its first membership: the first member of its
 * organization signed up (or was made by `org:create`, which recorded nothing that tells them
 * apart; neither of those has a link's proof unless its person used one since), one an accepted
 * invitation made came by invitation, any other was made by an organization (`team`; single
 * sign-on recorded nothing either, and neither counts). A login's link proof is its earliest used
 * mailed token or accepted invitation; logins made before verification existed (issue 28 counted
 * them confirmed) have none, so an administrator by address among them confirms again with a
 * password reset, or is granted with `admin:grant`.
 *
 * Existing grants (kept by address until now): a grant is kept, now naming the login, when that
 * login's address is confirmed and either the login existed before the grant (the operator
 * granted that login, as `admin:grant` does now) or a mailed link proved the address; every other
 * grant is dropped (no login has the address, it is unconfirmed, or a login made after the grant
 * took it without proving the address: the hole this closes). The operator log keeps the old
 * `platform_admin.granted` lines (target: the address); an operator whose grant went runs
 * `admin:grant` again.
 *
 * The operator log gains `actor_login_id`, the acting administrator's login beside the member it
 * acted as (`actor_id`); existing lines get it from that member (the append-only trigger is set
 * aside for that one statement). `actor_email` stays, to read.
 */
export class PlatformAdminsByLogin1764430000000 implements MigrationInterface {
  name = 'PlatformAdminsByLogin1764430000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE logins
        ADD COLUMN origin text CHECK (origin IN ('signup', 'team', 'invitation', 'sso', 'cli')),
        ADD COLUMN email_verified_by_link_at timestamptz`);
    await queryRunner.query(`
      UPDATE logins l SET origin = CASE
          WHEN EXISTS (SELECT 1 FROM invitations i WHERE i.accepted_user_id = f.id) THEN 'invitation'
          WHEN NOT EXISTS (
            SELECT 1 FROM users o WHERE o.organization_id = f.organization_id AND o.id < f.id)
            THEN 'signup'
          ELSE 'team'
        END
        FROM (SELECT DISTINCT ON (login_id) id, login_id, organization_id
                FROM users ORDER BY login_id, id) f
       WHERE f.login_id = l.id`);
    // A login without any membership: nothing says its person signed up.
    await queryRunner.query(`UPDATE logins SET origin = 'team' WHERE origin IS NULL`);
    await queryRunner.query(`ALTER TABLE logins ALTER COLUMN origin SET NOT NULL`);
    await queryRunner.query(`
      UPDATE logins l SET email_verified_by_link_at = proof.at
        FROM (SELECT login_id, min(at) AS at FROM (
                SELECT login_id, used_at AS at FROM login_tokens WHERE used_at IS NOT NULL
                UNION ALL
                SELECT u.login_id, i.accepted_at FROM invitations i
                  JOIN users u ON u.id = i.accepted_user_id
                 WHERE i.accepted_at IS NOT NULL) links
               GROUP BY login_id) proof
       WHERE proof.login_id = l.id`);

    await queryRunner.query(
      `ALTER TABLE platform_admins ADD COLUMN login_id bigint REFERENCES logins (id) ON DELETE CASCADE`,
    );
    await queryRunner.query(`
      UPDATE platform_admins p SET login_id = l.id
        FROM logins l
       WHERE lower(l.email) = p.email AND l.email_verified_at IS NOT NULL
         AND (l.created_at < p.created_at OR l.email_verified_by_link_at IS NOT NULL)`);
    await queryRunner.query(`DELETE FROM platform_admins WHERE login_id IS NULL`);
    // The address goes, and its primary key with it.
    await queryRunner.query(`ALTER TABLE platform_admins DROP COLUMN email`);
    await queryRunner.query(`ALTER TABLE platform_admins ADD PRIMARY KEY (login_id)`);

    await queryRunner.query(`ALTER TABLE platform_operator_log ADD COLUMN actor_login_id bigint`);
    await queryRunner.query(
      `ALTER TABLE platform_operator_log DISABLE TRIGGER platform_operator_log_append_only`,
    );
    await queryRunner.query(`
      UPDATE platform_operator_log o SET actor_login_id = u.login_id
        FROM users u WHERE u.id = o.actor_id AND o.actor_type = 'user'`);
    await queryRunner.query(
      `ALTER TABLE platform_operator_log ENABLE TRIGGER platform_operator_log_append_only`,
    );
    // Every console line names its user and login from now on (older lines are not checked again).
    await queryRunner.query(`
      ALTER TABLE platform_operator_log ADD CONSTRAINT platform_operator_log_user_actor_check
        CHECK (actor_type <> 'user' OR (actor_id IS NOT NULL AND actor_login_id IS NOT NULL))
        NOT VALID`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE platform_operator_log DROP CONSTRAINT platform_operator_log_user_actor_check`,
    );
    await queryRunner.query(`ALTER TABLE platform_operator_log DROP COLUMN actor_login_id`);
    await queryRunner.query(`ALTER TABLE platform_admins ADD COLUMN email text`);
    await queryRunner.query(
      `UPDATE platform_admins p SET email = lower(l.email) FROM logins l WHERE l.id = p.login_id`,
    );
    await queryRunner.query(`ALTER TABLE platform_admins DROP COLUMN login_id`);
    await queryRunner.query(`
      ALTER TABLE platform_admins
        ADD PRIMARY KEY (email),
        ADD CONSTRAINT platform_admins_email_check CHECK (email = lower(email))`);
    await queryRunner.query(
      `ALTER TABLE logins DROP COLUMN origin, DROP COLUMN email_verified_by_link_at`,
    );
  }
}
