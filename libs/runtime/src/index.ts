export * from './infra';
export * from './lifecycle';
export * from './running-service';
export * from './service-app';
export * from './service-main';
export * from './start-service';
export * from './organization-owners/organization-owner.repository';
export { followOrganizationOwners } from './organization-owners/organization-owners.consumer';
export * from './user-data/user-data-responder';
